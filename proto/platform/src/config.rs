//! Reading a process's configuration from the environment once, at start, reporting every
//! missing or malformed variable together rather than the first one.

use std::{fmt::Display, str::FromStr};

/// Collects values and problems while a `Config` is read.
#[derive(Default)]
pub struct Env {
    problems: Vec<String>,
}

/// Every problem found while reading the environment, one per line.
#[derive(Debug, thiserror::Error)]
#[error("invalid configuration:\n  {}", .0.join("\n  "))]
pub struct ConfigError(pub Vec<String>);

impl Env {
    pub fn new() -> Self {
        Self::default()
    }

    /// A variable that must be set and non-empty.
    pub fn required(&mut self, name: &str) -> String {
        match std::env::var(name) {
            Ok(v) if !v.trim().is_empty() => v,
            _ => {
                self.problems.push(format!("{name} is not set"));
                String::new()
            }
        }
    }

    /// A variable with a default.
    pub fn or(&mut self, name: &str, default: &str) -> String {
        std::env::var(name)
            .ok()
            .filter(|v| !v.trim().is_empty())
            .unwrap_or_else(|| default.to_owned())
    }

    /// A variable that may be absent.
    pub fn optional(&mut self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.trim().is_empty())
    }

    /// A variable parsed as `T`, with a default.
    pub fn parsed<T>(&mut self, name: &str, default: T) -> T
    where
        T: FromStr,
        T::Err: Display,
    {
        match std::env::var(name) {
            Ok(v) if !v.trim().is_empty() => v.trim().parse().unwrap_or_else(|e| {
                self.problems.push(format!("{name}={v:?} is invalid: {e}"));
                default
            }),
            _ => default,
        }
    }

    /// The contents of the file a required variable names.
    pub fn file(&mut self, name: &str) -> String {
        let path = self.required(name);
        if path.is_empty() {
            return path;
        }
        std::fs::read_to_string(&path).unwrap_or_else(|e| {
            self.problems.push(format!("{name}={path:?} cannot be read: {e}"));
            String::new()
        })
    }

    /// Ok when nothing was missing or malformed.
    pub fn finish(self) -> Result<(), ConfigError> {
        if self.problems.is_empty() {
            Ok(())
        } else {
            Err(ConfigError(self.problems))
        }
    }
}
