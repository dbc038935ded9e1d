//! texgraph's Python module, `import texgraph`: the engine of the `texgraph` CLI for
//! scripts, notebooks and pipelines. Graphs load, vary and render into NumPy arrays
//! (float32, height × width × channels, owning the render's memory) or export to files
//! byte for byte as `texgraph render` writes them. Renders release the GIL and stop on
//! Ctrl+C; every error is a Python exception carrying the CLI's message.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use texgraph_core::docs::{self, output_type, port_type};
use texgraph_core::registry;

mod detached;
mod errors;
mod graph;
mod pipeline;
mod values;

use graph::PyGraph;

/// Reads a graph file. Relative file params (images, subgraphs) start from the file's
/// folder, as the CLI reads them.
#[pyfunction]
fn load(py: Python<'_>, path: PathBuf) -> PyResult<PyGraph> {
    PyGraph::load(py, &path)
}

/// The ids of the file formats the module writes (`format=` of `Graph.export`, and the
/// extensions `path` may have), from the one format table the CLI also reads.
#[pyfunction]
fn formats() -> Vec<&'static str> {
    texgraph_core::export::Format::ids().collect()
}

/// Every node type of the registry, then every built-in library graph, as plain data: a
/// list of dicts with `id` (a node type, or `library:NAME` for a library graph, which a
/// `graph` node's `file` names), `label`, `category`, `doc`, `inputs` (name, type,
/// required, doc), `outputs` (name, type, doc), `params` (param, kind, default, min,
/// max, options, doc) and `library`. Float params are inputs too: connect a node to one
/// to vary it per pixel.
#[pyfunction]
fn nodes(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    let mut all: Vec<Bound<'_, PyDict>> = registry::NODES
        .iter()
        .map(|desc| {
            let node = PyDict::new(py);
            node.set_item("id", desc.id)?;
            node.set_item("label", desc.label)?;
            node.set_item("category", desc.category.label())?;
            node.set_item("doc", desc.doc)?;
            let inputs = desc
                .inputs
                .iter()
                .map(|port| {
                    let entry = PyDict::new(py);
                    entry.set_item("name", port.name)?;
                    entry.set_item("type", port_type(port.ty))?;
                    entry.set_item("required", port.required())?;
                    entry.set_item("unconnected", docs::unconnected(port.unconnected))?;
                    entry.set_item("doc", port.doc)?;
                    Ok(entry)
                })
                .collect::<PyResult<Vec<_>>>()?;
            node.set_item("inputs", inputs)?;
            let outputs = desc
                .outputs
                .iter()
                .map(|port| {
                    let entry = PyDict::new(py);
                    entry.set_item("name", port.name)?;
                    entry.set_item("type", output_type(port.ty))?;
                    entry.set_item("doc", port.doc)?;
                    Ok(entry)
                })
                .collect::<PyResult<Vec<_>>>()?;
            node.set_item("outputs", outputs)?;
            let params = desc
                .params
                .iter()
                .map(|param| values::param_dict(py, param))
                .collect::<PyResult<Vec<_>>>()?;
            node.set_item("params", params)?;
            node.set_item("library", false)?;
            Ok(node)
        })
        .collect::<PyResult<_>>()?;
    for entry in texgraph_core::catalog::library_entries() {
        all.push(library_entry(py, &entry)?);
    }
    Ok(all)
}

/// A built-in library graph as a node: its `id` is what a graph node's `file` param says.
fn library_entry<'py>(
    py: Python<'py>,
    entry: &texgraph_core::catalog::LibraryEntry,
) -> PyResult<Bound<'py, PyDict>> {
    let node = PyDict::new(py);
    node.set_item("id", &entry.file)?;
    node.set_item("label", &entry.label)?;
    node.set_item("category", &entry.category)?;
    node.set_item("doc", &entry.doc)?;
    let face = &entry.interface;
    let inputs = face
        .inputs
        .iter()
        .map(|port| {
            let d = PyDict::new(py);
            d.set_item("name", &port.name)?;
            d.set_item("type", port_type(port.ty))?;
            d.set_item("required", false)?;
            d.set_item("unconnected", "the graph input's default")?;
            d.set_item("doc", "")?;
            Ok(d)
        })
        .collect::<PyResult<Vec<_>>>()?;
    node.set_item("inputs", inputs)?;
    let outputs = face
        .outputs
        .iter()
        .map(|name| {
            let d = PyDict::new(py);
            d.set_item("name", name)?;
            d.set_item("type", "scalar or color")?;
            d.set_item("doc", "")?;
            Ok(d)
        })
        .collect::<PyResult<Vec<_>>>()?;
    node.set_item("outputs", outputs)?;
    let params = face
        .params
        .iter()
        .map(|p| values::param_entry(py, &p.name, &p.kind, &p.default_value(), &p.doc))
        .collect::<PyResult<Vec<_>>>()?;
    node.set_item("params", params)?;
    node.set_item("library", true)?;
    Ok(node)
}

/// The module.
#[pymodule]
fn texgraph(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyGraph>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(nodes, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(pipeline::batch, m)?)?;
    m.add_function(wrap_pyfunction!(pipeline::stitch, m)?)?;
    m.add("TexgraphError", py.get_type::<errors::TexgraphError>())?;
    m.add("GraphError", py.get_type::<errors::GraphError>())?;
    m.add("ExportError", py.get_type::<errors::ExportError>())?;
    m.add("RenderError", py.get_type::<errors::RenderError>())?;
    Ok(())
}
