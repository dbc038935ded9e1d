//! Graphs shared by link. The web page's address carries the graph in its fragment,
//! `#graph=` followed by the graph's JSON deflated (raw DEFLATE, RFC 1951) and written in
//! base64url without padding (RFC 4648 §5). Browsers never send the fragment to a server,
//! so a shared graph goes from one page to the other and nowhere else. Opening a link
//! reads the graph as a file is read, through the file format's migrations, so links made
//! by older versions keep opening.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use texgraph_core::Graph;

/// What precedes the graph in the fragment.
pub const PREFIX: &str = "graph=";

/// The longest fragment a link is made with, in characters: browsers take far longer
/// addresses (Chromium 2 MB), but mail and chat programs cut or refuse long ones well
/// before. Past it, "Copy link" says to share the graph as a file instead.
pub const MAX_LINK: usize = 32 * 1024;

/// The fragment (without `#`) that carries `graph`, or why it cannot: the graph is too
/// large for a link.
pub fn fragment(graph: &Graph) -> Result<String, String> {
    let json = graph.to_json();
    let deflated = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    let fragment = format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(deflated));
    if fragment.len() > MAX_LINK {
        return Err(format!(
            "this graph is too large for a link ({} KiB of the {} KiB a link may hold): save it and share the file",
            fragment.len().div_ceil(1024),
            MAX_LINK / 1024
        ));
    }
    Ok(fragment)
}

/// Whether `fragment` (without `#`) is meant to carry a graph.
pub fn carries_graph(fragment: &str) -> bool {
    fragment.starts_with(PREFIX)
}

/// The graph `fragment` (without `#`) carries, or what is wrong with the link.
pub fn graph(fragment: &str) -> Result<Graph, String> {
    let fail = |why: &str| format!("this link does not hold a graph that can be opened: {why}");
    let data = fragment
        .strip_prefix(PREFIX)
        .ok_or_else(|| fail("it has no graph= part"))?;
    // Padding, and the percent-encoding some programs add, are taken off.
    let data = data.replace("%3D", "").replace("%3d", "");
    let deflated = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|_| fail("it was cut short or changed (it is not base64url)"))?;
    let limit = usize::try_from(texgraph_core::graph::MAX_FILE_BYTES).unwrap_or(usize::MAX);
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, limit)
        .map_err(|_| fail("it was cut short or changed (it does not inflate)"))?;
    let json = String::from_utf8(json).map_err(|_| fail("its graph is not UTF-8 text"))?;
    Graph::from_json(&json).map_err(|e| fail(&e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marble() -> Graph {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../graphs/marble.json");
        Graph::load(std::path::Path::new(path)).unwrap()
    }

    #[test]
    fn a_link_gives_back_the_same_graph() {
        let graph = marble();
        let fragment = fragment(&graph).unwrap();
        assert!(fragment.starts_with("graph="));
        assert!(
            fragment[PREFIX.len()..]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
            "{fragment}"
        );
        assert_eq!(super::graph(&fragment).unwrap().to_json(), graph.to_json());
    }

    #[test]
    fn the_format_is_raw_deflate_in_base64url() {
        // Made independently: Python's zlib.compressobj(9, zlib.DEFLATED, -15) and
        // base64.urlsafe_b64encode, padding stripped, of the JSON below.
        let json = r#"{"format":"texgraph","version":1,"nodes":[{"id":"n","type":"perlin"},{"id":"out","type":"output","inputs":{"color":"n"}}]}"#;
        let link = format!("graph={}", python_link(json));
        let graph = super::graph(&link).unwrap();
        assert_eq!(graph.nodes.len(), 2);
        assert_eq!(graph.nodes[0].kind, "perlin");
    }

    /// The link Python's zlib and base64 make of `json` (see the test above).
    fn python_link(json: &str) -> String {
        let out = std::process::Command::new("python3")
            .args([
                "-c",
                "import sys,zlib,base64;c=zlib.compressobj(9,zlib.DEFLATED,-15);d=c.compress(sys.argv[1].encode())+c.flush();print(base64.urlsafe_b64encode(d).decode().rstrip('='))",
                json,
            ])
            .output()
            .expect("python3 runs");
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    }

    #[test]
    fn a_broken_link_says_so() {
        let good = fragment(&marble()).unwrap();
        for (broken, says) in [
            (&good[..good.len() / 2], "cut short or changed"),
            ("graph=@@@", "not base64url"),
            ("graph=AAAA", "cut short or changed"),
            ("view=1", "no graph= part"),
        ] {
            let message = super::graph(broken).unwrap_err();
            assert!(
                message.starts_with("this link does not hold a graph"),
                "{message}"
            );
            assert!(message.contains(says), "{broken}: {message}");
        }
        let not_a_graph = format!(
            "graph={}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"{\"nodes\": 3}", 9))
        );
        assert!(super::graph(&not_a_graph).is_err());
    }

    #[test]
    fn a_graph_too_large_for_a_link_is_refused_with_the_sizes() {
        let mut graph = marble();
        // Text that does not compress: a comment of pseudo-random letters.
        let mut seed = 1u64;
        let noise: String = (0..60_000)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b'a' + (seed >> 59) as u8 % 26)
            })
            .collect();
        graph.name = Some(noise);
        let message = fragment(&graph).unwrap_err();
        assert!(message.contains("too large for a link"), "{message}");
        assert!(message.contains("of the 32 KiB"), "{message}");
    }
}
