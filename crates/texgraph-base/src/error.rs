//! Errors of the core: every problem with a graph names the node and the field.

use std::fmt;
use std::path::PathBuf;

use crate::text::printable;

/// Result alias of the core.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Where in a graph a problem sits: the node id and, when it is about one, the field
/// (a param, an input port or a structural key such as `type`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Location {
    /// Id of the node, when the problem is about one node.
    pub node: Option<String>,
    /// The param, port or key of that node (or of the graph) that is wrong.
    pub field: Option<String>,
}

impl Location {
    /// A problem about one field of one node.
    pub fn field(node: &str, field: &str) -> Self {
        Self {
            node: Some(node.to_owned()),
            field: Some(field.to_owned()),
        }
    }

    /// A problem about a whole node.
    pub fn node(node: &str) -> Self {
        Self {
            node: Some(node.to_owned()),
            field: None,
        }
    }

    /// A problem about a top-level field of the graph.
    pub fn graph_field(field: &str) -> Self {
        Self {
            node: None,
            field: Some(field.to_owned()),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Ids and fields come from files: printed, they must not act on a terminal.
        let (node, field) = (
            self.node.as_deref().map(printable),
            self.field.as_deref().map(printable),
        );
        match (&node, &field) {
            (Some(n), Some(field)) => write!(f, "node '{n}', field '{field}'"),
            (Some(n), None) => write!(f, "node '{n}'"),
            (None, Some(field)) => write!(f, "field '{field}'"),
            (None, None) => write!(f, "graph"),
        }
    }
}

/// One problem found in a graph, with its location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphError {
    /// Which node and field.
    pub location: Location,
    /// What is wrong, in words.
    pub message: String,
}

impl GraphError {
    /// A problem at `location`.
    pub fn new(location: Location, message: impl Into<String>) -> Self {
        Self {
            location,
            message: message.into(),
        }
    }
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, printable(&self.message))
    }
}

/// Every error the core returns.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The graph breaks the format or the node catalogue; holds every problem found.
    #[error("{}", join_problems(.0))]
    Invalid(Vec<GraphError>),
    /// The text is not JSON at all.
    #[error("not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file concerned.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A render request the machine cannot or should not carry out.
    #[error("{0}")]
    Render(String),
    /// Encoding an image failed.
    #[error("cannot encode {path}: {message}")]
    Export {
        /// The file being written.
        path: PathBuf,
        /// What the encoder said.
        message: String,
    },
    /// A file given (a region to stitch, a manifest, a file to write in a format that
    /// cannot hold what is asked) cannot be used.
    #[error("{path}: {message}")]
    Input {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// An environment image for the material ball cannot be used.
    #[error("{path}: {message}")]
    Environment {
        /// The image file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// The render was cancelled through `RenderOptions::cancel`.
    #[error("cancelled")]
    Cancelled,
}

impl Error {
    /// A single graph problem at `location`.
    pub fn at(location: Location, message: impl Into<String>) -> Self {
        Error::Invalid(vec![GraphError::new(location, message)])
    }

    /// The graph problems this error carries (empty for other kinds).
    pub fn problems(&self) -> &[GraphError] {
        match self {
            Error::Invalid(p) => p,
            _ => &[],
        }
    }
}

fn join_problems(problems: &[GraphError]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
