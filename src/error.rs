//! Errors at the engine's edges (notation, parameters, options, match configuration): each its
//! own type carrying the message a user sees.

/// Declares an error type that carries its message, with `Display` and `Error`.
macro_rules! message_error {
    ($(#[doc = $doc:literal])* $name:ident) => {
        $(#[doc = $doc])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name(pub String);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl std::error::Error for $name {}
    };
}

pub(crate) use message_error;
