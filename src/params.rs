//! Tables of named integer parameters with ranges (evaluation and search), settable by name
//! from the protocol's options, `tessera match` engine settings and `tuning/`.

crate::error::message_error!(
    /// A parameter name that does not exist, a value out of range or a malformed `name=value`.
    ParamError
);

/// Declares a `Copy` struct of `i32` fields, each with an inclusive range, and by-name access.
/// The type must implement `Default` (its defaults table) for `overrides`.
macro_rules! tunable {
    (
        $(#[doc = $sdoc:literal])* $ty:ident, $what:literal,
        $($(#[doc = $doc:literal])* $name:ident: $min:literal ..= $max:literal,)*
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $ty {
            $($(#[doc = $doc])* pub $name: i32,)*
        }

        impl $ty {
            /// Every parameter: (name, minimum, maximum).
            pub const RANGES: &'static [(&'static str, i32, i32)] = &[$((stringify!($name), $min, $max),)*];

            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($name) => Some(self.$name),)*
                    _ => None,
                }
            }

            /// Sets one parameter by name; an unknown name or a value out of range is an error.
            pub fn set(&mut self, name: &str, value: i32) -> Result<(), $crate::params::ParamError> {
                use $crate::params::ParamError;
                let &(_, min, max) = Self::RANGES
                    .iter()
                    .find(|(n, _, _)| *n == name)
                    .ok_or_else(|| ParamError(format!("unknown {} '{name}'", $what)))?;
                if !(min..=max).contains(&value) {
                    return Err(ParamError(format!("{name} must be from {min} to {max}")));
                }
                match name {
                    $(stringify!($name) => self.$name = value,)*
                    _ => {}
                }
                Ok(())
            }

            /// Parses `name=value` pairs separated by commas or spaces, starting from `self`.
            pub fn with_overrides(mut self, text: &str) -> Result<Self, $crate::params::ParamError> {
                use $crate::params::ParamError;
                for part in text.split(|c: char| c == ',' || c.is_whitespace()).filter(|p| !p.is_empty()) {
                    let (name, value) = part.split_once('=').ok_or_else(|| ParamError(format!("'{part}' is not name=value")))?;
                    let value = value.parse::<i32>().map_err(|_| ParamError(format!("{name} needs an integer, got '{value}'")))?;
                    self.set(name, value)?;
                }
                Ok(self)
            }

            /// `name=value` for every parameter that differs from the defaults, comma-separated.
            pub fn overrides(&self) -> String {
                let defaults = Self::default();
                let parts: Vec<String> = Self::RANGES
                    .iter()
                    .filter_map(|&(n, _, _)| {
                        let v = self.get(n)?;
                        (Some(v) != defaults.get(n)).then(|| format!("{n}={v}"))
                    })
                    .collect();
                parts.join(",")
            }
        }
    };
}

pub(crate) use tunable;
