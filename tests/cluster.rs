//! A sharded match on the schedulers, as tuning/README.md documents it. On a real Slurm: a
//! single-node cluster (munged, slurmctld and slurmd, all started here with their own key, ports
//! and directories) runs `tuning/cluster/match-shard.sh` as an array job and the merge as a job
//! that depends on it; the merged shards equal the unsharded match game by game; a shard cut
//! short fails the merge, naming its games, and that shard run again alone mends it; every daemon
//! started is stopped. For Kubernetes (no cluster here): the objects `match-job.sh` writes, read
//! as YAML, and their pod's command run as the pod would. Slurm, munge and PyYAML are installed by
//! the README's test command.

use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::common::{json_lines, scratch, tessera_match, totals};

/// The match the test shards: blocks of 6 games (two engines in three seats), one per shard.
const SHARDS: usize = 3;
const SETTINGS: [(&str, &str); 7] = [
    ("GAME", "honeycomb3"),
    ("ENGINE1", "name=d1,depth=1"),
    ("ENGINE2", "name=d2,depth=2"),
    ("GAMES", "18"),
    ("OPENINGS", "random:3"),
    ("SEED", "5"),
    ("MAX_PLIES", "400"),
];

/// `tessera match` arguments for the match of `SETTINGS`, with `extra` after them.
fn match_args(extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec!["--game".into(), SETTINGS[0].1.into()];
    for (flag, (_, value)) in ["--engine", "--engine", "--games", "--openings", "--seed", "--max-plies"].iter().zip(&SETTINGS[1..]) {
        args.extend([flag.to_string(), value.to_string()]);
    }
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}

fn run_match(args: &[String]) -> String {
    tessera_match(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn cluster_script(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tuning/cluster").join(name).to_str().expect("path").to_string()
}

/// A single-node cluster whose daemons live as long as the value.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    daemons: Vec<(&'static str, Child)>,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").expect("a free port").local_addr().expect("address").port()
}

fn output_text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        let dir = dir.join("slurm");
        for sub in ["state", "spool", "log"] {
            std::fs::create_dir_all(dir.join(sub)).expect("cluster directories");
        }
        let user = String::from_utf8(Command::new("id").arg("-un").output().expect("id runs").stdout).expect("user name");
        let user = user.trim();
        // slurmd's own view of this machine is the node's definition.
        let node = Command::new("slurmd").arg("-C").output().expect("slurmd is installed (tests/install.sh)");
        let node = String::from_utf8_lossy(&node.stdout).lines().next().expect("slurmd -C names the node").to_string();
        let host = node.split_whitespace().next().and_then(|w| w.strip_prefix("NodeName=")).expect("NodeName=").to_string();
        let key = dir.join("munge.key");
        std::fs::write(&key, (0..1024).map(|i| (i * 7919 % 251) as u8).collect::<Vec<_>>()).expect("munge key");
        let chmod = Command::new("chmod").arg("400").arg(&key).status().expect("chmod runs");
        assert!(chmod.success());
        let socket = dir.join("munge.sock");
        let d = dir.display();
        let conf = dir.join("slurm.conf");
        std::fs::write(
            &conf,
            format!(
                "ClusterName=tessera-test\nSlurmctldHost={host}(127.0.0.1)\nSlurmUser={user}\nSlurmdUser={user}\n\
                 SlurmctldPort={}\nSlurmdPort={}\nAuthType=auth/munge\nCredType=cred/munge\n\
                 AuthInfo=socket={}\nStateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
                 SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
                 SlurmctldLogFile={d}/log/slurmctld.log\nSlurmdLogFile={d}/log/slurmd.log\n\
                 ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSelectType=select/cons_tres\n\
                 SelectTypeParameters=CR_Core\nSchedulerParameters=sched_interval=1\nMpiDefault=none\n\
                 ReturnToService=2\n{node} NodeAddr=127.0.0.1 State=UNKNOWN\n\
                 PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
                free_port(),
                free_port(),
                socket.display()
            ),
        )
        .expect("slurm.conf");
        let mut cluster = Cluster { dir: dir.clone(), conf: conf.clone(), daemons: Vec::new() };
        let log = |name: &str| std::fs::File::create(dir.join("log").join(name)).expect("log file");
        let spawn = |program: &str, args: &[&str], name: &str| {
            Command::new(program)
                .args(args)
                .stdout(log(name))
                .stderr(log(&format!("{name}.err")))
                .spawn()
                .unwrap_or_else(|e| panic!("{program} starts (tests/install.sh installs it): {e}"))
        };
        let conf_arg = conf.to_str().expect("path");
        // --force: a scratch directory under /tmp does not pass munged's permission checks.
        let munged = spawn(
            "munged",
            &[
                "--foreground",
                "--force",
                &format!("--key-file={}", key.display()),
                &format!("--socket={}", socket.display()),
                &format!("--pid-file={d}/munged.pid"),
                &format!("--seed-file={d}/munged.seed"),
                &format!("--log-file={d}/log/munged.log"),
            ],
            "munged",
        );
        cluster.daemons.push(("munged", munged));
        cluster.wait_for("munged's socket", || socket.exists());
        cluster.daemons.push(("slurmctld", spawn("slurmctld", &["-D", "-f", conf_arg], "slurmctld")));
        cluster.daemons.push(("slurmd", spawn("slurmd", &["-D", "-f", conf_arg], "slurmd")));
        cluster.wait_for("the node to be idle", || {
            let out = cluster.client("sinfo", &["-h", "-o", "%T"]);
            String::from_utf8_lossy(&out.stdout).trim() == "idle"
        });
        cluster
    }

    fn wait_for(&self, what: &str, done: impl Fn() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(120);
        while !done() {
            assert!(Instant::now() < deadline, "timed out waiting for {what}; logs in {}", self.dir.display());
            sleep(Duration::from_millis(200));
        }
    }

    /// Runs a Slurm client command against this cluster from `cwd`.
    fn client_in(&self, cwd: &Path, program: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
        Command::new(program)
            .args(args)
            .current_dir(cwd)
            .env("SLURM_CONF", &self.conf)
            .envs(env.iter().copied())
            .output()
            .unwrap_or_else(|e| panic!("{program} runs: {e}"))
    }

    fn client(&self, program: &str, args: &[&str]) -> Output {
        self.client_in(&self.dir, program, args, &[])
    }

    /// `sbatch --parsable ARGS` from `cwd`: the job's id.
    fn submit(&self, cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
        let out = self.client_in(cwd, "sbatch", &[&["--parsable"], args].concat(), env);
        assert!(out.status.success(), "sbatch {args:?}: {}", output_text(&out));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Waits until job `id` (every task of an array) has ended; returns its state.
    fn finish(&self, id: &str) -> String {
        self.wait_for(&format!("job {id}"), || {
            let out = self.client("squeue", &["-h", "-j", id]);
            out.status.success() && out.stdout.is_empty()
        });
        let out = self.client("scontrol", &["show", "job", id]);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let state = text.split_whitespace().find_map(|w| w.strip_prefix("JobState=")).expect("JobState");
        state.to_string()
    }

    /// Stops every daemon (SIGTERM, as their service units do) and says which did not stop.
    fn stop(&mut self) -> Vec<&'static str> {
        let mut stuck = Vec::new();
        while let Some((name, mut child)) = self.daemons.pop() {
            let _ = Command::new("kill").arg("-TERM").arg(child.id().to_string()).stderr(Stdio::null()).status();
            let deadline = Instant::now() + Duration::from_secs(20);
            while child.try_wait().ok().flatten().is_none() {
                if Instant::now() > deadline {
                    stuck.push(name);
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                sleep(Duration::from_millis(100));
            }
        }
        stuck
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A file's games by index.
fn games(paths: &[PathBuf]) -> Vec<(u64, serde_json::Value)> {
    let mut g: Vec<_> =
        paths.iter().flat_map(|p| json_lines(p)).map(|l| (l["index"].as_u64().expect("index"), l["moves"].clone())).collect();
    g.sort_by_key(|g| g.0);
    g
}

#[test]
#[ignore = "needs Slurm and munge from tests/install.sh: run by .ci/run"]
fn a_slurm_array_job_plays_the_match_and_a_dependent_job_merges_it() {
    let dir = scratch("slurm");
    let runs = dir.join("runs");
    let tessera = env!("CARGO_BIN_EXE_tessera");
    let script = cluster_script("match-shard.sh");
    let script = script.as_str();

    // The whole match, unsharded.
    let whole_file = dir.join("whole.jsonl");
    let whole = run_match(&match_args(&["--jsonl", whole_file.to_str().expect("path")]));
    let whole_games = games(&[whole_file]);

    let mut cluster = Cluster::start(&dir);
    let shards = SHARDS.to_string();
    let mut env: Vec<(&str, &str)> = SETTINGS.to_vec();
    env.extend([("SHARDS", shards.as_str()), ("RUNS", runs.to_str().expect("path")), ("TESSERA", tessera)]);
    let merge_command = format!("{tessera} match merge {}/shard-*-of-{SHARDS}.jsonl", runs.display());
    let merge_after = |job: &str| {
        let merge =
            cluster.submit(&dir, &[&format!("--dependency=afterany:{job}"), "--output=merge-%j.out", "--wrap", &merge_command], &[]);
        let state = cluster.finish(&merge);
        let said = std::fs::read_to_string(dir.join(format!("merge-{merge}.out"))).expect("the merge's log");
        (state, said)
    };

    // The documented commands: the array job, then the merge once every task has ended.
    let array = cluster.submit(&dir, &[&format!("--array=1-{SHARDS}"), script], &env);
    let (state, merged) = merge_after(&array);
    assert_eq!(state, "COMPLETED", "{merged}");
    assert_eq!(cluster.finish(&array), "COMPLETED");
    let shard_files: Vec<PathBuf> = (1..=SHARDS).map(|k| runs.join(format!("shard-{k}-of-{SHARDS}.jsonl"))).collect();
    assert_eq!(games(&shard_files), whole_games, "the shards play exactly the whole match's games");
    assert_eq!(totals(&merged), totals(&whole), "{merged}\n{whole}");
    for k in 1..=SHARDS {
        let log = dir.join(format!("slurm-tessera-match-{array}_{k}.out"));
        assert!(log.exists(), "Slurm writes task {k}'s log in the submitting directory");
    }

    // Shard 2 cut short (a task that failed mid-way): the merge fails, naming its games.
    let second = &shard_files[1];
    let kept: String = std::fs::read_to_string(second)
        .expect("shard 2")
        .lines()
        .filter(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON")["index"].as_u64() < Some(8))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(second, kept).expect("cut shard 2 short");
    let (state, said) = merge_after(&array);
    assert_eq!(state, "FAILED", "{said}");
    assert!(said.contains("4 of the match's 18 games are missing (9-12)"), "{said}");

    // That shard alone again, as an array of one task, then the merge succeeds.
    let rerun = cluster.submit(&dir, &["--array=2", script], &env);
    let (state, merged) = merge_after(&rerun);
    assert_eq!(state, "COMPLETED", "{merged}");
    assert_eq!(games(&shard_files), whole_games, "the rerun shard plays its games again");
    assert_eq!(totals(&merged), totals(&whole), "{merged}\n{whole}");

    assert!(cluster.stop().is_empty(), "every daemon stops on SIGTERM");
}

/// The Kubernetes objects as YAML documents, read by PyYAML.
fn manifest(extra: &[&str]) -> Vec<serde_json::Value> {
    let shards = SHARDS.to_string();
    let out = Command::new("bash")
        .arg(cluster_script("match-job.sh"))
        .args(extra)
        .envs(SETTINGS)
        .envs([("SHARDS", shards.as_str()), ("IMAGE", "registry.example/tessera:1")])
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "match-job.sh: {}", output_text(&out));
    let mut read = Command::new("python3")
        .args(["-c", "import json, sys, yaml; print(json.dumps(list(yaml.safe_load_all(sys.stdin))))"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    read.stdin.take().expect("stdin").write_all(&out.stdout).expect("YAML written");
    let json = read.wait_with_output().expect("python3 ends");
    assert!(json.status.success(), "match-job.sh writes YAML (PyYAML from tests/install.sh reads it)");
    serde_json::from_slice::<Vec<serde_json::Value>>(&json.stdout).expect("JSON")
}

#[test]
#[ignore = "needs PyYAML from tests/install.sh: run by .ci/run"]
fn the_kubernetes_job_runs_each_shard_once_on_a_shared_volume() {
    let objects = manifest(&[]);
    let [claim, job] = &objects[..] else { panic!("a volume claim and a Job: {objects:?}") };
    assert_eq!(claim["kind"], "PersistentVolumeClaim");
    assert_eq!(claim["spec"]["accessModes"], serde_json::json!(["ReadWriteMany"]), "pods on several nodes write it");
    let spec = &job["spec"];
    assert_eq!((spec["completionMode"].as_str(), spec["completions"].as_u64()), (Some("Indexed"), Some(SHARDS as u64)));
    assert_eq!(spec["parallelism"], spec["completions"]);
    assert_eq!(spec["backoffLimitPerIndex"], 2, "retries count per shard");
    assert_eq!(spec["template"]["spec"]["restartPolicy"], "Never", "backoffLimitPerIndex needs it");
    let pod = &spec["template"]["spec"]["containers"][0];
    assert_eq!(pod["command"], serde_json::json!(["bash", "/opt/tessera/match-shard.sh"]));
    assert_eq!(pod["volumeMounts"][0]["mountPath"], "/runs");
    let env: Vec<(String, String)> = pod["env"]
        .as_array()
        .expect("env")
        .iter()
        .map(|e| (e["name"].as_str().expect("name").to_string(), e["value"].as_str().expect("a string value").to_string()))
        .collect();
    for (name, value) in SETTINGS {
        assert!(env.contains(&(name.to_string(), value.to_string())), "{name} passed on: {env:?}");
    }

    // The pod of index 1 as the image runs it, its paths mapped to this machine's: shard 2.
    let dir = scratch("kubernetes");
    let runs = dir.join("runs");
    let local = |value: &str| match value {
        "/runs" => runs.to_str().expect("path").to_string(),
        "/usr/local/bin/tessera" => env!("CARGO_BIN_EXE_tessera").to_string(),
        v => v.to_string(),
    };
    let pod_run = Command::new("bash")
        .arg(cluster_script("match-shard.sh"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(env.iter().map(|(n, v)| (n.clone(), local(v))))
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .expect("bash runs");
    assert!(pod_run.status.success(), "{}", output_text(&pod_run));
    let direct = dir.join("direct.jsonl");
    run_match(&match_args(&["--shard", &format!("2/{SHARDS}"), "--jsonl", direct.to_str().expect("path")]));
    assert_eq!(games(&[runs.join(format!("shard-2-of-{SHARDS}.jsonl"))]), games(&[direct]));

    let merge = manifest(&["--merge"]);
    let command = merge[0]["spec"]["template"]["spec"]["containers"][0]["command"].to_string();
    assert!(command.contains(&format!("tessera match merge /runs/shard-*-of-{SHARDS}.jsonl")), "{command}");
}
