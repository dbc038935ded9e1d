//! `image`: a bitmap file as a color. The file is read (and cached) when the graph is
//! compiled, so a missing or broken file is an error naming the node and `path` before
//! anything renders.

use std::path::Path;

use crate::descriptor::{COLOR_OUT, Category, NodeDescriptor, Param, ParamKind, choice};
use texgraph_base::error::{GraphError, Location};

/// `image`: a bitmap file.
pub static IMAGE: NodeDescriptor = NodeDescriptor {
    id: "image",
    label: "Image",
    category: Category::Input,
    doc: "A PNG (8 or 16-bit), JPEG, EXR, Radiance HDR or TIFF file stretched over the unit square, as RGBA \
          (stored values, no color conversion; gray files become gray). Texel centres sit at \
          ((i + 0.5)/width, (j + 0.5)/height), so at the file's own size with `nearest` every \
          pixel is the file's. Files up to 8192×8192 and 1 GiB.",
    inputs: &[],
    outputs: COLOR_OUT,
    params: &[
        Param {
            name: "path",
            doc: "The file: relative to the graph file's folder, or absolute.",
            kind: ParamKind::File { default: "" },
        },
        choice(
            "filter",
            "bilinear",
            &["bilinear", "nearest"],
            "Blend the four nearest texels, or take the nearest.",
        ),
        Param {
            name: "repeat",
            doc: "Repeat the image beyond its edges (else the edge texels extend).",
            kind: ParamKind::Bool { default: true },
        },
    ],
    compile: |ctx| {
        let path = ctx.text("path").to_owned();
        let nearest = ctx.text("filter") == "nearest";
        let repeat = ctx.flag("repeat");
        if path.is_empty() {
            return Err(ctx.error("path", "no image file chosen"));
        }
        let at = Location::field(ctx.id(), "path");
        let plane = ctx.image_plane(|| {
            crate::images::load(Path::new(&path))
                .map(|image| (image, repeat))
                .map_err(|message| GraphError::new(at, message))
        })?;
        Ok(vec![ctx.read(plane, nearest)?])
    },
};
