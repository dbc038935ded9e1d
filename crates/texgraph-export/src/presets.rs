//! Export presets: which files a material is written as, for an engine. A preset is data:
//! per file, which usages fill which channels (inverted where an engine wants
//! smoothness), the color space, bit depth, normal convention, format and a name pattern.
//! The built-in presets are a JSON table in the same schema as users' preset files
//! (`presets.json`), so `texgraph presets --json` prints working examples.

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::{Depth, Format};
use texgraph_engine::usage::{Encoding, Usage};

/// The built-in presets, in the schema of preset files.
const BUILT_IN: &str = include_str!("presets.json");

/// Which way a normal map's green channel points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NormalConvention {
    /// Green up (+y towards the top of the image): Blender, Godot, Unity, glTF.
    OpenGl,
    /// Green down (1 − OpenGL's green): Unreal, Direct3D engines.
    DirectX,
}

/// Where a file of the `gltf` preset is bound in the material.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GltfSlot {
    /// `baseColorTexture` (alpha = opacity).
    BaseColor,
    /// `normalTexture`.
    Normal,
    /// `occlusionTexture` (R) and `metallicRoughnessTexture` (G, B).
    OcclusionRoughnessMetallic,
    /// `emissiveTexture`.
    Emissive,
}

const SLOTS: [(&str, GltfSlot); 4] = [
    ("base_color", GltfSlot::BaseColor),
    ("normal", GltfSlot::Normal),
    (
        "occlusion_roughness_metallic",
        GltfSlot::OcclusionRoughnessMetallic,
    ),
    ("emissive", GltfSlot::Emissive),
];

/// What fills one channel of a packed file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Source {
    /// A map: its only channel, or `channel` (0–3 = r, g, b, a) of a color map; `invert`
    /// writes 1 − the value.
    Map {
        /// The map read.
        usage: Usage,
        /// Which of its channels (`None`: the first, for maps of one channel).
        channel: Option<usize>,
        /// 1 − the value.
        invert: bool,
    },
    /// The same value everywhere.
    Constant(f32),
}

/// What a file holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// One map as it is: one channel or RGBA.
    Map(Usage),
    /// Channels packed from several maps: `r` alone makes a gray file; otherwise RGBA,
    /// with missing color channels 0 and a missing alpha 1.
    Channels([Option<Source>; 4]),
}

/// One file of a preset.
#[derive(Debug, Clone, PartialEq)]
pub struct PresetFile {
    /// File name pattern: `{graph}`, `{usage}` (for a whole map) and `{ext}` are replaced.
    pub pattern: String,
    /// What it holds.
    pub content: Content,
    /// Green up or down, for channels read from the normal map.
    pub normal: NormalConvention,
    /// Bits per channel, when the preset fixes them.
    pub bits: Option<u32>,
    /// The format, when it differs from the preset's.
    pub format: Option<Format>,
    /// Color space, when the preset fixes it (else from the maps read).
    pub encoding: Option<Encoding>,
    /// Left out when the graph has none of the maps it reads (else their neutral values
    /// are written).
    pub optional: bool,
    /// Its slot in the `.gltf` material, for presets that write one.
    pub slot: Option<GltfSlot>,
}

/// An export preset.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// The name `--preset` takes.
    pub name: String,
    /// One line for `texgraph presets`.
    pub description: String,
    /// The files' format unless a file or `--format` says otherwise.
    pub format: Format,
    /// Whether a `.gltf` scene of the material is written beside the files.
    pub gltf: bool,
    /// The files, in order.
    pub files: Vec<PresetFile>,
}

/// A preset file that cannot be used: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresetError {
    /// The preset (its name, or `#n` when it has none).
    pub preset: String,
    /// The field, as a path (`files[2].channels.g`).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for PresetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "preset '{}', field '{}': {}",
            texgraph_base::text::printable(&self.preset),
            texgraph_base::text::printable(&self.field),
            texgraph_base::text::printable(&self.message)
        )
    }
}

/// The built-in presets.
pub fn built_in() -> Vec<Preset> {
    parse_presets(BUILT_IN).expect("the built-in presets are valid")
}

/// The built-in presets with `theirs` added, each replacing a built-in of its name: what
/// `--preset-file` and the editor's user presets offer.
pub fn with_user(theirs: Vec<Preset>) -> Vec<Preset> {
    let mut all = built_in();
    for preset in theirs {
        all.retain(|p| p.name != preset.name);
        all.push(preset);
    }
    all
}

/// The preset called `name` among `presets`.
pub fn find<'p>(presets: &'p [Preset], name: &str) -> Option<&'p Preset> {
    presets.iter().find(|p| p.name == name)
}

/// Reads a preset file: a JSON array of presets (or one preset object).
pub fn load_presets(path: &Path) -> texgraph_base::Result<Vec<Preset>> {
    let text = texgraph_base::files::read_text(path, 1 << 20, "preset files")?;
    parse_presets(&text)
        .map_err(|e| texgraph_base::Error::Render(format!("{}: {e}", path.display())))
}

/// Parses presets from JSON text.
pub fn parse_presets(text: &str) -> Result<Vec<Preset>, PresetError> {
    let fail = |preset: &str, field: &str, message: String| PresetError {
        preset: preset.to_owned(),
        field: field.to_owned(),
        message,
    };
    let value: Value =
        serde_json::from_str(text).map_err(|e| fail("", "", format!("not valid JSON: {e}")))?;
    let list = match value {
        Value::Array(list) => list,
        one @ Value::Object(_) => vec![one],
        _ => {
            return Err(fail(
                "",
                "",
                "a preset file is a JSON array of presets or one preset object".into(),
            ));
        }
    };
    let mut presets: Vec<Preset> = Vec::with_capacity(list.len());
    for (i, value) in list.iter().enumerate() {
        let preset = parse_preset(value, i)?;
        if presets.iter().any(|p| p.name == preset.name) {
            return Err(fail(
                &preset.name,
                "name",
                "another preset in the file has this name".into(),
            ));
        }
        presets.push(preset);
    }
    Ok(presets)
}

/// Reads fields of one JSON object, naming the preset and the field path on failure.
struct Fields<'v> {
    object: &'v Map<String, Value>,
    preset: String,
    path: String,
}

impl<'v> Fields<'v> {
    fn error(&self, field: &str, message: impl Into<String>) -> PresetError {
        PresetError {
            preset: self.preset.clone(),
            field: if self.path.is_empty() {
                field.to_owned()
            } else if field.is_empty() {
                self.path.clone()
            } else {
                format!("{}.{field}", self.path)
            },
            message: message.into(),
        }
    }

    fn only(&self, known: &[&str]) -> Result<(), PresetError> {
        match self.object.keys().find(|k| !known.contains(&k.as_str())) {
            Some(unknown) => Err(self.error(
                unknown,
                format!("unknown field (known: {})", known.join(", ")),
            )),
            None => Ok(()),
        }
    }

    fn text(&self, field: &str) -> Result<Option<&'v str>, PresetError> {
        match self.object.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.error(field, "must be a string")),
        }
    }

    fn flag(&self, field: &str) -> Result<bool, PresetError> {
        match self.object.get(field) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.error(field, "must be true or false")),
        }
    }

    fn format(&self, field: &str) -> Result<Option<Format>, PresetError> {
        self.text(field)?
            .map(|id| {
                Format::parse(id).ok_or_else(|| {
                    self.error(
                        field,
                        format!(
                            "unknown format '{id}' (formats: {})",
                            Format::ids().collect::<Vec<_>>().join(", ")
                        ),
                    )
                })
            })
            .transpose()
    }
}

fn parse_preset(value: &Value, index: usize) -> Result<Preset, PresetError> {
    let unnamed = format!("#{}", index + 1);
    let Value::Object(object) = value else {
        return Err(PresetError {
            preset: unnamed,
            field: String::new(),
            message: "a preset is a JSON object".into(),
        });
    };
    let mut fields = Fields {
        object,
        preset: unnamed,
        path: String::new(),
    };
    let name = fields
        .text("name")?
        .ok_or_else(|| fields.error("name", "missing"))?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(fields.error("name", "must be letters, digits, '-' or '_'"));
    }
    fields.preset = name.to_owned();
    fields.only(&["name", "description", "format", "gltf", "files"])?;
    let format = fields.format("format")?.unwrap_or(Format::Png);
    let gltf = fields.flag("gltf")?;
    let Some(Value::Array(list)) = object.get("files") else {
        return Err(fields.error("files", "missing, or not an array of files"));
    };
    if list.is_empty() {
        return Err(fields.error("files", "a preset writes at least one file"));
    }
    let mut files = Vec::with_capacity(list.len());
    for (i, file) in list.iter().enumerate() {
        let path = format!("files[{i}]");
        let Value::Object(object) = file else {
            return Err(fields.error(&path, "a file is a JSON object"));
        };
        let file = parse_file(&Fields {
            object,
            preset: name.to_owned(),
            path,
        })?;
        files.push(file);
    }
    let preset = Preset {
        name: name.to_owned(),
        description: fields.text("description")?.unwrap_or_default().to_owned(),
        format,
        gltf,
        files,
    };
    check_gltf(&preset, &fields)?;
    check_files(&preset, &fields)?;
    Ok(preset)
}

/// Refuses what no export of the preset could write: 32 bits in a PNG, two files of the
/// same name.
fn check_files(preset: &Preset, fields: &Fields<'_>) -> Result<(), PresetError> {
    let mut names: Vec<String> = Vec::with_capacity(preset.files.len());
    for (i, file) in preset.files.iter().enumerate() {
        let kind = file.format.unwrap_or(preset.format);
        if kind == Format::Png && file.bits == Some(32) {
            return Err(fields.error(
                &format!("files[{i}].bits"),
                "PNG holds 8 or 16 bits; write 32-bit maps as EXR or TIFF (\"format\": \"exr\")",
            ));
        }
        let name = file.file_name("graph", kind);
        if let Some(first) = names.iter().position(|n| *n == name) {
            return Err(fields.error(
                &format!("files[{i}].file"),
                format!(
                    "names the same file as files[{first}] ({name} for a graph called 'graph')"
                ),
            ));
        }
        names.push(name);
    }
    Ok(())
}

const CHANNELS: [&str; 4] = ["r", "g", "b", "a"];

fn parse_file(fields: &Fields<'_>) -> Result<PresetFile, PresetError> {
    fields.only(&[
        "file",
        "map",
        "channels",
        "normal",
        "bits",
        "format",
        "color_space",
        "optional",
        "slot",
    ])?;
    let pattern = fields
        .text("file")?
        .ok_or_else(|| fields.error("file", "missing: the file name pattern"))?
        .to_owned();
    let content = match (fields.text("map")?, fields.object.get("channels")) {
        (Some(_), Some(_)) => {
            return Err(fields.error("channels", "a file has either 'map' or 'channels'"));
        }
        (None, None) => return Err(fields.error("map", "missing: give 'map' or 'channels'")),
        (Some(id), None) => Content::Map(parse_usage(fields, "map", id)?),
        (None, Some(Value::Object(channels))) => {
            let mut sources = [None; 4];
            for (key, value) in channels {
                let Some(c) = CHANNELS.iter().position(|k| k == key) else {
                    return Err(fields.error(
                        &format!("channels.{key}"),
                        "unknown channel (channels: r, g, b, a)",
                    ));
                };
                sources[c] = Some(parse_source(fields, &format!("channels.{key}"), value)?);
            }
            if sources[0].is_none() {
                return Err(fields.error("channels.r", "missing: every packed file has r"));
            }
            Content::Channels(sources)
        }
        (None, Some(_)) => {
            return Err(fields.error(
                "channels",
                "must be an object of channels, e.g. {\"r\": \"ambient_occlusion\", \"a\": \"1-roughness\"}",
            ));
        }
    };
    check_pattern(fields, &pattern, &content)?;
    let normal = match fields.text("normal")? {
        None | Some("opengl") => NormalConvention::OpenGl,
        Some("directx") => NormalConvention::DirectX,
        Some(other) => {
            return Err(fields.error(
                "normal",
                format!("unknown convention '{other}' (opengl or directx)"),
            ));
        }
    };
    let bits = match fields.object.get("bits") {
        None => None,
        Some(value) => match value.as_u64().and_then(|b| Depth::from_bits(b as u32)) {
            Some(depth) => Some(depth.bits()),
            None => return Err(fields.error("bits", "must be 8, 16 or 32")),
        },
    };
    let encoding = match fields.text("color_space")? {
        None => None,
        Some("srgb") => Some(Encoding::Srgb),
        Some("linear") => Some(Encoding::Linear),
        Some(other) => {
            return Err(fields.error(
                "color_space",
                format!("unknown color space '{other}' (srgb or linear)"),
            ));
        }
    };
    let slot = match fields.text("slot")? {
        None => None,
        Some(id) => Some(
            SLOTS
                .iter()
                .find(|(k, _)| *k == id)
                .map(|(_, s)| *s)
                .ok_or_else(|| {
                    fields.error(
                        "slot",
                        format!(
                            "unknown glTF slot '{id}' (slots: base_color, normal, occlusion_roughness_metallic, emissive)"
                        ),
                    )
                })?,
        ),
    };
    Ok(PresetFile {
        pattern,
        content,
        normal,
        bits,
        format: fields.format("format")?,
        encoding,
        optional: fields.flag("optional")?,
        slot,
    })
}

fn parse_usage(fields: &Fields<'_>, field: &str, id: &str) -> Result<Usage, PresetError> {
    match Usage::parse(id) {
        Some(Usage::Color) | None => Err(fields.error(
            field,
            format!(
                "unknown usage '{id}' (usages: {})",
                Usage::IDS[1..].join(", ")
            ),
        )),
        Some(usage) => Ok(usage),
    }
}

/// A channel's source: a number in [0, 1], or `usage`, `usage.c` (a channel of a color
/// map), either after `1-` for the inverse.
fn parse_source(fields: &Fields<'_>, field: &str, value: &Value) -> Result<Source, PresetError> {
    let text = match value {
        Value::Number(n) => {
            return match n.as_f64() {
                Some(v) if (0.0..=1.0).contains(&v) => Ok(Source::Constant(v as f32)),
                _ => Err(fields.error(field, "a constant channel is a number from 0 to 1")),
            };
        }
        Value::String(s) => s.trim(),
        _ => {
            return Err(fields.error(
                field,
                "must be a usage ('roughness', '1-roughness', 'basecolor.r') or a number",
            ));
        }
    };
    let (invert, rest) = match text.strip_prefix("1-") {
        Some(rest) => (true, rest.trim()),
        None => (false, text),
    };
    let (id, channel) = match rest.split_once('.') {
        Some((id, c)) => match CHANNELS.iter().position(|k| *k == c) {
            Some(c) => (id, Some(c)),
            None => {
                return Err(fields.error(
                    field,
                    format!("unknown channel '.{c}' of '{id}' (r, g, b or a)"),
                ));
            }
        },
        None => (rest, None),
    };
    let usage = parse_usage(fields, field, id)?;
    match (usage.channels(), channel) {
        (Some(4), None) => Err(fields.error(
            field,
            format!("'{id}' is a color: name one of its channels, e.g. '{id}.r'"),
        )),
        (Some(1), Some(_)) => Err(fields.error(
            field,
            format!("'{id}' has one channel: write '{id}' without a channel"),
        )),
        _ => Ok(Source::Map {
            usage,
            channel,
            invert,
        }),
    }
}

fn check_pattern(fields: &Fields<'_>, pattern: &str, content: &Content) -> Result<(), PresetError> {
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            return Err(fields.error("file", "a '{' is not closed"));
        };
        match &rest[open + 1..open + close] {
            "graph" | "ext" => {}
            "usage" if matches!(content, Content::Map(_)) => {}
            "usage" => {
                return Err(fields.error(
                    "file",
                    "'{usage}' names a file of one map; a packed file needs its own name",
                ));
            }
            other => {
                return Err(fields.error(
                    "file",
                    format!(
                        "unknown placeholder '{{{other}}}' (use {{graph}}, {{usage}}, {{ext}})"
                    ),
                ));
            }
        }
        rest = &rest[open + close + 1..];
    }
    if pattern.contains(['/', '\\']) || pattern.trim().is_empty() || pattern.starts_with('.') {
        return Err(fields.error("file", "must be a plain file name (no folders, not hidden)"));
    }
    Ok(())
}

fn check_gltf(preset: &Preset, fields: &Fields<'_>) -> Result<(), PresetError> {
    for (i, file) in preset.files.iter().enumerate() {
        if file.slot.is_some() && !preset.gltf {
            return Err(fields.error(
                &format!("files[{i}].slot"),
                "slots are for presets that write a .gltf (\"gltf\": true)",
            ));
        }
        let format = file.format.unwrap_or(preset.format);
        if preset.gltf && file.slot.is_some() && format != Format::Png {
            return Err(fields.error(
                &format!("files[{i}].format"),
                "glTF materials read PNG textures",
            ));
        }
    }
    if preset.gltf && !preset.files.iter().any(|f| f.slot.is_some()) {
        return Err(fields.error("gltf", "a .gltf needs files with a 'slot'"));
    }
    Ok(())
}

impl Preset {
    /// The preset in the schema of preset files.
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("name".into(), json!(self.name));
        object.insert("description".into(), json!(self.description));
        object.insert("format".into(), json!(self.format.id()));
        if self.gltf {
            object.insert("gltf".into(), json!(true));
        }
        let files: Vec<Value> = self.files.iter().map(PresetFile::to_json).collect();
        object.insert("files".into(), Value::Array(files));
        Value::Object(object)
    }
}

impl PresetFile {
    fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("file".into(), json!(self.pattern));
        match &self.content {
            Content::Map(usage) => {
                object.insert("map".into(), json!(usage.id()));
            }
            Content::Channels(sources) => {
                let mut channels = Map::new();
                for (key, source) in CHANNELS.iter().zip(sources) {
                    let value = match source {
                        None => continue,
                        Some(Source::Constant(v)) => json!(v),
                        Some(Source::Map {
                            usage,
                            channel,
                            invert,
                        }) => json!(format!(
                            "{}{}{}",
                            if *invert { "1-" } else { "" },
                            usage.id(),
                            channel.map_or(String::new(), |c| format!(".{}", CHANNELS[c]))
                        )),
                    };
                    channels.insert((*key).into(), value);
                }
                object.insert("channels".into(), Value::Object(channels));
            }
        }
        if self.reads_normal() {
            let normal = match self.normal {
                NormalConvention::OpenGl => "opengl",
                NormalConvention::DirectX => "directx",
            };
            object.insert("normal".into(), json!(normal));
        }
        if let Some(bits) = self.bits {
            object.insert("bits".into(), json!(bits));
        }
        if let Some(format) = self.format {
            object.insert("format".into(), json!(format.id()));
        }
        if let Some(encoding) = self.encoding {
            let space = if encoding == Encoding::Srgb {
                "srgb"
            } else {
                "linear"
            };
            object.insert("color_space".into(), json!(space));
        }
        if self.optional {
            object.insert("optional".into(), json!(true));
        }
        if let Some(slot) = self.slot {
            let id = SLOTS
                .iter()
                .find(|(_, s)| *s == slot)
                .map_or("", |(k, _)| k);
            object.insert("slot".into(), json!(id));
        }
        Value::Object(object)
    }

    /// The maps the file reads.
    pub fn usages(&self) -> Vec<Usage> {
        match &self.content {
            Content::Map(usage) => vec![*usage],
            Content::Channels(sources) => {
                let mut usages = Vec::new();
                for source in sources.iter().flatten() {
                    if let Source::Map { usage, .. } = source
                        && !usages.contains(usage)
                    {
                        usages.push(*usage);
                    }
                }
                usages
            }
        }
    }

    /// Whether any of its channels comes from the normal map.
    pub fn reads_normal(&self) -> bool {
        self.usages().contains(&Usage::Normal)
    }

    /// Channels of the file: 1 for a gray file, 4 for RGBA.
    pub fn channels(&self) -> usize {
        match &self.content {
            Content::Map(usage) => usage.channels().unwrap_or(4),
            Content::Channels([_, None, None, None]) => 1,
            Content::Channels(_) => 4,
        }
    }

    /// The color space written: the preset's, else that of the map (or, for a packed
    /// file, sRGB when every color channel comes from an sRGB map; alpha is always
    /// linear).
    pub fn encoding(&self) -> Encoding {
        if let Some(encoding) = self.encoding {
            return encoding;
        }
        match &self.content {
            Content::Map(usage) => usage.encoding(),
            Content::Channels(sources) => {
                let srgb = sources[..3].iter().flatten().all(|s| match s {
                    Source::Map { usage, .. } => usage.encoding() == Encoding::Srgb,
                    Source::Constant(_) => true,
                }) && sources[..3].iter().flatten().any(|s| {
                    matches!(s, Source::Map { usage, .. } if usage.encoding() == Encoding::Srgb)
                });
                if srgb {
                    Encoding::Srgb
                } else {
                    Encoding::Linear
                }
            }
        }
    }

    /// Bits per channel when the file's format holds integers: the preset's, else the
    /// deepest default among the maps it reads (16 for height).
    pub fn bits(&self) -> u32 {
        self.bits.unwrap_or_else(|| {
            self.usages()
                .iter()
                .map(|u| u.default_bits())
                .max()
                .unwrap_or(8)
        })
    }

    /// The file name for a graph called `graph` written as `kind`.
    pub fn file_name(&self, graph: &str, kind: Format) -> String {
        let usage = match &self.content {
            Content::Map(usage) => usage.id(),
            Content::Channels(_) => "",
        };
        self.pattern
            .replace("{graph}", graph)
            .replace("{usage}", usage)
            .replace("{ext}", kind.id())
    }
}

/// The channel tables of `presets` in Markdown (docs/materials.md holds the built-ins').
pub fn markdown(presets: &[Preset]) -> String {
    let mut out = String::new();
    for preset in presets {
        out.push_str(&format!("### `{}`\n\n{}.", preset.name, preset.description));
        if preset.gltf {
            out.push_str(" Also writes `{graph}.gltf` and `{graph}.bin`.");
        }
        out.push_str(&format!(
            " Files are {} unless `--format` says otherwise.\n\n",
            preset.format.id().to_uppercase()
        ));
        out.push_str(
            "| file | R | G | B | A | color space | bits |\n|---|---|---|---|---|---|---|\n",
        );
        for file in &preset.files {
            let name = |source: &Option<Source>, c: usize| match source {
                None if c == 3 => "1".to_owned(),
                None => "0".to_owned(),
                Some(Source::Constant(v)) => format!("{v}"),
                Some(Source::Map {
                    usage,
                    channel,
                    invert,
                }) => {
                    let mut text = format!(
                        "{}{}{}",
                        if *invert { "1 − " } else { "" },
                        usage.id(),
                        channel.map_or(String::new(), |c| format!(".{}", CHANNELS[c]))
                    );
                    if *usage == Usage::Normal
                        && file.normal == NormalConvention::DirectX
                        && *channel == Some(1)
                    {
                        text.push_str(" (DirectX: flipped)");
                    }
                    text
                }
            };
            let cells: Vec<String> = match &file.content {
                Content::Map(usage) if usage.channels() == Some(1) => {
                    vec![usage.id().to_owned(), "—".into(), "—".into(), "—".into()]
                }
                Content::Map(usage) => (0..4)
                    .map(|c| {
                        name(
                            &Some(Source::Map {
                                usage: *usage,
                                channel: Some(c),
                                invert: false,
                            }),
                            c,
                        )
                    })
                    .collect(),
                Content::Channels([r, None, None, None]) => {
                    vec![name(r, 0), "—".into(), "—".into(), "—".into()]
                }
                Content::Channels(sources) => sources
                    .iter()
                    .enumerate()
                    .map(|(c, s)| name(s, c))
                    .collect(),
            };
            let space = match file.encoding() {
                Encoding::Srgb => "sRGB",
                _ => "linear",
            };
            let optional = if file.optional {
                " (if the graph has it)"
            } else {
                ""
            };
            out.push_str(&format!(
                "| `{}`{optional} | {} | {space} | {} |\n",
                file.pattern,
                cells.join(" | "),
                file.bits()
            ));
        }
        out.push('\n');
    }
    out
}
