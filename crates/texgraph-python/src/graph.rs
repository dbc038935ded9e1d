//! `texgraph.Graph`: a graph document to inspect, vary, render and export.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};
use texgraph_core::error::Location;
use texgraph_core::eval::stream::Region;
use texgraph_core::eval::{MAX_SIDE, MAX_THREADS};
use texgraph_core::export::Format;
use texgraph_core::export::material::{MaterialSettings, render_together};
use texgraph_core::export::presets::{built_in, find};
use texgraph_core::export::{Depth, Exported, file_stem_for, to_linear_light};
use texgraph_core::usage::Encoding;
use texgraph_core::variation::set_param;
use texgraph_core::{
    ExportRequest, Image, MaterialExport, RenderOptions, StillExport, output_names,
};

use crate::detached;
use crate::errors::{graph_error_at, to_py};
use crate::values::param_value_to_py;

/// An image size: a side for a square, or (width, height). Any whole numbers are taken,
/// so a side out of range (0, negative, huge) gets the range in its message.
#[derive(FromPyObject, Clone, Copy)]
pub enum Size {
    /// width = height.
    Square(i64),
    /// (width, height).
    Rect(i64, i64),
}

impl Size {
    /// Width and height, each 1 to [`MAX_SIDE`] as the CLI's `--size` takes them.
    fn checked(self) -> PyResult<(u32, u32)> {
        let (w, h) = match self {
            Size::Square(side) => (side, side),
            Size::Rect(w, h) => (w, h),
        };
        let side = |n: i64| u32::try_from(n).ok().filter(|n| (1..=MAX_SIDE).contains(n));
        match (side(w), side(h)) {
            (Some(w), Some(h)) => Ok((w, h)),
            _ => Err(PyValueError::new_err(format!(
                "size {w}x{h}: each side must be 1 to {MAX_SIDE} pixels"
            ))),
        }
    }
}

/// A texgraph graph: nodes, their params and outputs. Load one with `texgraph.load(path)`
/// or `Graph.from_json(text)`; vary it with `set`; render it into NumPy arrays with
/// `render` and `render_all`, or to files with `export`, as `texgraph render` does.
#[pyclass(name = "Graph", module = "texgraph", from_py_object)]
#[derive(Clone)]
pub struct PyGraph {
    graph: texgraph_core::Graph,
    /// The file it came from, which names it in messages and file names.
    path: Option<PathBuf>,
}

impl PyGraph {
    /// A graph read from `path`, its relative file params made to start from the file's
    /// folder.
    pub fn load(py: Python<'_>, path: &Path) -> PyResult<Self> {
        let name = path.display().to_string();
        let mut graph = texgraph_core::Graph::load(path).map_err(|e| to_py(py, e, Some(&name)))?;
        graph.resolve_paths(&texgraph_core::paths::folder_of(path));
        Ok(Self {
            graph,
            path: Some(path.to_owned()),
        })
    }

    fn file(&self) -> Option<String> {
        self.path.as_ref().map(|p| p.display().to_string())
    }

    /// The graph at `time` (when given), for one render.
    fn at_time(&self, time: Option<f64>) -> PyResult<texgraph_core::Graph> {
        let mut graph = self.graph.clone();
        if let Some(time) = time {
            if !time.is_finite() {
                return Err(PyValueError::new_err("time must be a finite number"));
            }
            graph.settings.time = time as f32;
        }
        Ok(graph)
    }

    /// Render options for `threads` threads (all cores when None), cancelled by `cancel`.
    fn options(threads: Option<usize>, cancel: &Arc<AtomicBool>) -> PyResult<RenderOptions> {
        if threads.is_some_and(|n| !(1..=MAX_THREADS).contains(&n)) {
            return Err(PyValueError::new_err(format!(
                "threads must be 1 to {MAX_THREADS}"
            )));
        }
        Ok(RenderOptions {
            threads,
            cancel: Some(cancel.clone()),
            ..RenderOptions::default()
        })
    }

    /// Renders the outputs `names` together, as NumPy arrays (H, W, C) owning the
    /// render's memory.
    #[allow(clippy::too_many_arguments)]
    fn render_outputs<'py>(
        &self,
        py: Python<'py>,
        names: Vec<String>,
        size: Size,
        time: Option<f64>,
        threads: Option<usize>,
        linear: bool,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Vec<(String, Bound<'py, PyAny>)>> {
        let (width, height) = size.checked()?;
        let graph = self.at_time(time)?;
        let cancel = Arc::new(AtomicBool::new(false));
        let settings = MaterialSettings {
            width,
            height,
            format: None,
            graph_name: String::new(),
            options: Self::options(threads, &cancel)?,
        };
        let rows = AtomicU64::new(0);
        let report = detached::count_reporter(progress, &rows, u64::from(height));
        let work = || {
            let done = |row: u32| rows.store(u64::from(row), Ordering::Relaxed);
            let mut rendered = render_together(&graph, &names, &settings, &|_| 0, &done)?;
            // Decoded here, still without the GIL.
            for (image, output) in rendered.images.iter_mut().zip(&rendered.outputs) {
                if linear && output.usage.encoding() == Encoding::Srgb {
                    to_linear_light(image);
                }
            }
            Ok::<_, texgraph_core::Error>(rendered)
        };
        let rendered = detached::run_reporting(py, &cancel, work, report)?
            .map_err(|e| to_py(py, e, self.file().as_deref()))?;
        rendered
            .images
            .into_iter()
            .zip(rendered.outputs)
            .map(|(image, output)| Ok((output.name, array(py, image)?)))
            .collect()
    }
}

/// `image` as a float32 NumPy array (height, width, channels) that owns its samples:
/// the render's buffer handed over, not copied.
fn array(py: Python<'_>, image: Image) -> PyResult<Bound<'_, PyAny>> {
    let shape = [image.height as usize, image.width as usize, image.channels];
    Ok(PyArray1::from_vec(py, image.data)
        .reshape(shape)?
        .into_any())
}

#[pymethods]
impl PyGraph {
    /// A graph from the text of a graph file (JSON).
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<Self> {
        let graph = texgraph_core::Graph::from_json(text).map_err(|e| to_py(py, e, None))?;
        Ok(Self { graph, path: None })
    }

    /// The graph as the text of a graph file (JSON), with every `set` applied.
    fn to_json(&self) -> String {
        self.graph.to_json()
    }

    /// The file the graph was loaded from, or None.
    #[getter]
    fn path(&self) -> Option<String> {
        self.file()
    }

    /// The names of the graph's outputs, in order: what `render(output=…)` takes.
    #[getter]
    fn outputs(&self) -> Vec<String> {
        output_names(&self.graph)
    }

    /// Every param of every node (a subgraph node's `file` and the params its graph
    /// exposes), as `texgraph params --json` lists them: a list of dicts with `node`,
    /// `type` (the node's), `param`, `kind` (float, integer, choice, color, text, file,
    /// boolean, stops, points), `value` (the graph's, or the default), `default`, `min`
    /// and `max` (numbers; None otherwise), `options` (choices; None otherwise) and `doc`.
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let mut list = Vec::new();
        for p in texgraph_core::params::graph_params(&self.graph) {
            let entry = crate::values::param_entry(py, &p.name, &p.kind, &p.default, &p.doc)?;
            entry.set_item("node", &p.node)?;
            entry.set_item("type", &p.node_type)?;
            entry.set_item("value", param_value_to_py(py, &p.value, &p.kind)?)?;
            list.push(entry);
        }
        Ok(list)
    }

    /// Sets a param, `set("veins.frequency", 5)`, as `texgraph render --set
    /// veins.frequency=5` does: numbers, booleans, choice and color strings, file paths
    /// (relative to the working directory), and lists of stops or points (as in graph
    /// files). Raises GraphError naming the node and field when it cannot.
    fn set(&mut self, py: Python<'_>, key: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let Some((node, param)) = key.split_once('.') else {
            return Err(graph_error_at(
                py,
                Location::default(),
                format!("'{key}': expected node.param"),
            ));
        };
        let text = value_text(py, value)?;
        set_param(&mut self.graph, node, param, &text)
            .map_err(|e| graph_error_at(py, e.location, e.message))
    }

    /// Renders one output (the first when None) at `size` (a side, or (width, height))
    /// and `time` (the graph's own when None) on `threads` threads (all cores when None):
    /// a float32 array (height, width, channels), 1 channel for scalar outputs, 4 (RGBA)
    /// for colors. With `linear` (the default) the values are those `texgraph render -o
    /// out.exr` writes: base color and emissive maps decoded from sRGB to linear light;
    /// `linear=False` gives them as rendered, as PNGs hold them. The GIL is released
    /// while it renders; Ctrl+C stops it (KeyboardInterrupt). `progress`, when given, is
    /// called as `progress(rows_done, rows)` while it renders (from the calling thread,
    /// a few dozen times a second at most); an exception from it stops the render.
    #[pyo3(signature = (size = Size::Square(1024), output = None, time = None, threads = None, linear = true, progress = None))]
    #[allow(clippy::too_many_arguments)]
    fn render<'py>(
        &self,
        py: Python<'py>,
        size: Size,
        output: Option<String>,
        time: Option<f64>,
        threads: Option<usize>,
        linear: bool,
        progress: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let name = match output {
            Some(name) => name,
            None => self.outputs().into_iter().next().ok_or_else(|| {
                graph_error_at(
                    py,
                    Location::default(),
                    "the graph has no output node, so there is nothing to render".to_owned(),
                )
            })?,
        };
        let mut images = self.render_outputs(
            py,
            vec![name],
            size,
            time,
            threads,
            linear,
            progress.as_ref(),
        )?;
        Ok(images.remove(0).1)
    }

    /// Renders every output together as one program (as `texgraph render
    /// --all-outputs` does): a dict of arrays by output name, as `render` gives them.
    #[pyo3(signature = (size = Size::Square(1024), time = None, threads = None, linear = true, progress = None))]
    fn render_all<'py>(
        &self,
        py: Python<'py>,
        size: Size,
        time: Option<f64>,
        threads: Option<usize>,
        linear: bool,
        progress: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        let outputs = self.outputs();
        let rendered =
            self.render_outputs(py, outputs, size, time, threads, linear, progress.as_ref())?;
        for (name, image) in rendered {
            dict.set_item(name, image)?;
        }
        Ok(dict)
    }

    /// Writes files as `texgraph render` does, byte for byte: `path`'s extension picks
    /// the format (.png, .exr, .tif); `depth` 8, 16 or 32 (default: the output's usage's,
    /// else the format's); `output` one output (default: the first) or `all_outputs`
    /// (one file each, `<stem>_<name>.<ext>`). With `preset` (see `texgraph presets`),
    /// `path` is a folder and the material's files are written there, with `format`
    /// replacing the preset's file type (and its glTF scene, for presets with one). Returns
    /// the paths written. Samples outside [0, 1] clamped into an 8- or 16-bit file raise a
    /// `UserWarning` naming the file (the file is written, clamped). `region=(x, y, w,
    /// h)` writes only that part of the image, as `texgraph render --region` does, for
    /// `texgraph.stitch`. `progress`, when given, is called as `progress(rows_done,
    /// rows)` while it renders.
    #[pyo3(signature = (path, size = Size::Square(1024), depth = None, output = None, all_outputs = false, preset = None, format = None, time = None, threads = None, region = None, progress = None))]
    #[allow(clippy::too_many_arguments)]
    fn export(
        &self,
        py: Python<'_>,
        path: PathBuf,
        size: Size,
        depth: Option<u32>,
        output: Option<String>,
        all_outputs: bool,
        preset: Option<String>,
        format: Option<String>,
        time: Option<f64>,
        threads: Option<usize>,
        region: Option<(u32, u32, u32, u32)>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Vec<String>> {
        let (width, height) = size.checked()?;
        let graph = self.at_time(time)?;
        let cancel = Arc::new(AtomicBool::new(false));
        let options = Self::options(threads, &cancel)?;
        let file = self.file();
        let fail = |e| to_py(py, e, file.as_deref());
        let region = match region {
            None => None,
            Some((x, y, width_r, height_r)) => {
                let region = Region {
                    x,
                    y,
                    width: width_r,
                    height: height_r,
                };
                if !region.fits(width, height) {
                    return Err(PyValueError::new_err(format!(
                        "region {x},{y},{width_r},{height_r} is not inside the {width}x{height} image: x + w must be at most {width}, y + h at most {height}, and w and h at least 1"
                    )));
                }
                Some(region)
            }
        };
        let request = if let Some(name) = preset {
            if region.is_some() {
                return Err(PyValueError::new_err(
                    "region goes with an image export, not a preset",
                ));
            }
            if depth.is_some() || output.is_some() || all_outputs {
                return Err(PyValueError::new_err(
                    "a preset writes the material's own maps: depth, output and all_outputs \
                     do not go with it",
                ));
            }
            let presets = built_in();
            let preset = find(&presets, &name).ok_or_else(|| {
                let names: Vec<&str> = presets.iter().map(|p| p.name.as_str()).collect();
                PyValueError::new_err(format!(
                    "no preset named '{name}' (presets: {})",
                    names.join(", ")
                ))
            })?;
            let format = match format.as_deref() {
                None => None,
                Some(id) => Some(Format::parse(id).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "format '{id}': expected one of {}",
                        Format::ids().collect::<Vec<_>>().join(", ")
                    ))
                })?),
            };
            ExportRequest::Material(MaterialExport {
                preset: preset.clone(),
                format,
                graph_name: file_stem_for(&graph, self.path.as_deref()),
                folder: path,
                size: (width, height),
                also: Vec::new(),
            })
        } else {
            if format.is_some() {
                return Err(PyValueError::new_err(
                    "format goes with a preset; without one, the path's extension picks it",
                ));
            }
            let depth = match depth {
                None => None,
                Some(bits) => Some(Depth::from_bits(bits).ok_or_else(|| {
                    PyValueError::new_err(format!("depth {bits}: expected 8, 16 or 32"))
                })?),
            };
            let mut still = StillExport::to_file(
                &graph,
                &path,
                output.as_deref(),
                all_outputs,
                (width, height),
                depth,
            );
            still.region = region;
            ExportRequest::Still(still)
        };
        let rows = AtomicU64::new(0);
        let report = detached::count_reporter(progress.as_ref(), &rows, request.rows());
        let work = || {
            let done = |n: u64| rows.store(n, Ordering::Relaxed);
            request.run(&graph, &options, &done)
        };
        let written = detached::run_reporting(py, &cancel, work, report)?.map_err(fail)?;
        for warning in written.iter().filter_map(Exported::clip_warning) {
            let message = std::ffi::CString::new(warning).unwrap_or_default();
            PyErr::warn(py, py.get_type::<PyUserWarning>().as_any(), &message, 1)?;
        }
        // Every file written: a material's maps and its glTF scene.
        Ok(request
            .files(&graph)
            .into_iter()
            .map(|p| p.display().to_string())
            .collect())
    }

    /// Moves every `seed` param of the graph on by `seed` (nodes, and subgraph nodes that
    /// expose a seed), wrapping in each param's range: seed 0 leaves the graph as saved.
    /// The rule of a batch manifest's `seeds`, so `offset_seeds(7)` then `export` writes
    /// the bytes the batch job of seed 7 writes.
    fn offset_seeds(&mut self, seed: u32) {
        texgraph_core::variation::offset_seeds(&mut self.graph, seed);
    }

    fn __repr__(&self) -> String {
        let outputs = self.outputs().join(", ");
        match self.file() {
            Some(file) => format!(
                "<texgraph.Graph {file}: {} nodes, outputs {outputs}>",
                self.graph.nodes.len()
            ),
            None => format!(
                "<texgraph.Graph: {} nodes, outputs {outputs}>",
                self.graph.nodes.len()
            ),
        }
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }
}

/// A Python value as `--set` would read it: numbers, booleans, strings and paths as
/// they are, lists (stops, points) as JSON.
fn value_text(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyBool>() {
        return Ok(if value.extract::<bool>()? {
            "true"
        } else {
            "false"
        }
        .to_owned());
    }
    if value.is_instance_of::<PyInt>() {
        return Ok(value.extract::<i64>()?.to_string());
    }
    if value.is_instance_of::<PyFloat>() {
        return Ok(value.extract::<f64>()?.to_string());
    }
    if value.is_instance_of::<PyString>() {
        return value.extract::<String>();
    }
    if let Ok(path) = value.extract::<PathBuf>() {
        return Ok(path.display().to_string());
    }
    let json = py.import("json")?;
    json.call_method1("dumps", (value,))?.extract::<String>()
}
