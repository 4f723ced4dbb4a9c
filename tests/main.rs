//! Whole-engine tests, gathered in one test crate so that the test build links one binary:
//! perft against outside references, each game's rules, and the protocol through the binary.

mod common;

mod aof3;
mod browser;
mod clocked;
mod cluster;
mod cwda_crosscheck;
mod engine_limits;
mod four_player_games;
mod game_end;
mod guru2;
mod guru2_teams;
mod honeycomb3;
mod honeycomb3_subvariants;
mod layers;
mod match_runner;
mod ninjachess;
mod perft_chess;
mod perft_cwda;
mod protocol_analysis;
mod protocol_doc;
mod protocol_errors;
mod protocol_fuzz;
mod protocol_games;
mod python_chess;
mod roundtrip;
mod search_options;
mod serve_http;
mod serve_limits;
mod tactics;
mod won_endings;
