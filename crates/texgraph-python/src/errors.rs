//! texgraph's errors as Python exceptions, with the CLI's messages.
//!
//! `GraphError` (a problem with the graph, with `.node` and `.field` saying where),
//! `ExportError` (a file that cannot be written or read), `RenderError` (a render the
//! machine cannot carry out), all `TexgraphError`s; `MemoryError` when the memory check
//! refuses a render; `KeyboardInterrupt` when Ctrl+C stopped one.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt, PyMemoryError};
use pyo3::prelude::*;
use texgraph_core::error::Location;
use texgraph_core::{Error, GraphError as CoreGraphError};

create_exception!(
    texgraph,
    TexgraphError,
    PyException,
    "Base class of texgraph's own errors."
);
create_exception!(
    texgraph,
    GraphError,
    TexgraphError,
    "A problem with the graph: `.node` and `.field` say where (None where it is the whole \
     graph or the whole node), `.problems` lists every problem found as (node, field, \
     message)."
);
create_exception!(
    texgraph,
    ExportError,
    TexgraphError,
    "A file that cannot be written (or read): `.path` names it."
);
create_exception!(
    texgraph,
    RenderError,
    TexgraphError,
    "A render the machine cannot or should not carry out."
);

/// A `GraphError` for `problems` (at least one), located at the first.
pub fn graph_error(py: Python<'_>, problems: &[CoreGraphError]) -> PyErr {
    let message = problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    let err = GraphError::new_err(message);
    let first = problems.first().map(|p| &p.location);
    let list: Vec<(Option<String>, Option<String>, String)> = problems
        .iter()
        .map(|p| {
            (
                p.location.node.clone(),
                p.location.field.clone(),
                p.message.clone(),
            )
        })
        .collect();
    let value = err.value(py);
    // Setting attributes on a fresh exception cannot fail; if it somehow did, the
    // exception is still raised with its message.
    let _ = value.setattr("node", first.and_then(|l| l.node.clone()));
    let _ = value.setattr("field", first.and_then(|l| l.field.clone()));
    let _ = value.setattr("problems", list);
    err
}

/// One problem at `location`, as a `GraphError` whose text is `message` alone (it names
/// the node and field itself, as `--set`'s messages do).
pub fn graph_error_at(py: Python<'_>, location: Location, message: String) -> PyErr {
    let err = graph_error(py, &[CoreGraphError::new(location, message.clone())]);
    let _ = err.value(py).setattr("args", (message,));
    err
}

/// The Python exception for a core error, with the CLI's message (`file`, when the graph
/// came from one, names it as the CLI does).
pub fn to_py(py: Python<'_>, error: Error, file: Option<&str>) -> PyErr {
    let named = |message: String| match file {
        Some(file) => format!("{file}: {message}"),
        None => message,
    };
    match error {
        Error::Invalid(problems) => graph_error(py, &problems),
        Error::Json(e) => graph_error_at(py, Location::default(), format!("not valid JSON: {e}")),
        Error::Cancelled => PyKeyboardInterrupt::new_err("render cancelled"),
        Error::Render(message) if is_about_memory(&message) => {
            PyMemoryError::new_err(named(message))
        }
        Error::Render(message) => RenderError::new_err(named(message)),
        Error::Io { ref path, .. }
        | Error::Export { ref path, .. }
        | Error::Input { ref path, .. }
        | Error::Environment { ref path, .. } => {
            let err = ExportError::new_err(error.to_string());
            let _ = err
                .value(py)
                .setattr("path", path.to_string_lossy().into_owned());
            err
        }
        other => TexgraphError::new_err(other.to_string()),
    }
}

/// Whether a render refusal is the memory check's (or an allocation that failed).
fn is_about_memory(message: &str) -> bool {
    message.contains("memory") || message.contains("too large to address")
}
