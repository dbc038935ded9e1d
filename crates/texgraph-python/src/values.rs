//! Params and their values as plain Python data.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use texgraph_core::ParamValue;
use texgraph_core::registry::{Param, ParamKind};

/// A param's description: `param`, `kind`, `default`, `min`, `max`, `options`, `doc`.
pub fn param_dict<'py>(py: Python<'py>, param: &Param) -> PyResult<Bound<'py, PyDict>> {
    param_entry(
        py,
        param.name,
        &param.kind,
        &param.kind.default_value(),
        param.doc,
    )
}

/// A param of a node type or an exposed param of a library graph, as plain data.
pub fn param_entry<'py>(
    py: Python<'py>,
    name: &str,
    kind: &ParamKind,
    default: &texgraph_core::ParamValue,
    doc: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let entry = PyDict::new(py);
    entry.set_item("param", name)?;
    entry.set_item("kind", kind.type_name())?;
    let default = param_value_to_py(py, default, kind)?;
    entry.set_item("default", default)?;
    let (min, max) = match *kind {
        ParamKind::Float { min, max, .. } | ParamKind::Number { min, max, .. } => (
            Some(f64::from(min).into_pyobject(py)?.into_any()),
            Some(f64::from(max).into_pyobject(py)?.into_any()),
        ),
        ParamKind::Int { min, max, .. } => (
            Some(min.into_pyobject(py)?.into_any()),
            Some(max.into_pyobject(py)?.into_any()),
        ),
        _ => (None, None),
    };
    entry.set_item("min", min)?;
    entry.set_item("max", max)?;
    let options = match *kind {
        ParamKind::Choice { options, .. } => Some(options.to_vec()),
        _ => None,
    };
    entry.set_item("options", options)?;
    entry.set_item("doc", doc)?;
    Ok(entry)
}

/// A param value as Python data: an int for integer params, a float for other numbers,
/// a bool, a str, or a list of dicts for stops and points (as in graph files).
pub fn param_value_to_py<'py>(
    py: Python<'py>,
    value: &ParamValue,
    kind: &ParamKind,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        ParamValue::Number(n) if matches!(kind, ParamKind::Int { .. }) => {
            (*n as i64).into_pyobject(py)?.into_any()
        }
        ParamValue::Number(n) => n.into_pyobject(py)?.into_any(),
        ParamValue::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        ParamValue::Text(text) => text.into_pyobject(py)?.into_any(),
        other => {
            let text = serde_json::to_string(other)
                .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
            py.import("json")?.call_method1("loads", (text,))?
        }
    })
}
