//! Comments (notes and frames on the editor canvas): saved and loaded as they are,
//! checked, and never part of rendering.

use crate::common;

use texgraph_core::{
    Comment, Error, Graph, Location, RenderOptions, compile, compile_node, diagnose, render,
    validate,
};

const PERLIN: &str = r#"{ "format": "texgraph", "version": 1, "nodes": [
    { "id": "noise", "type": "perlin", "params": { "frequency": 6 } },
    { "id": "out", "type": "output", "inputs": { "color": "noise" } } ] }"#;

/// PERLIN with `comments` (JSON array text) added.
fn with_comments(comments: &str) -> String {
    PERLIN.replacen(
        r#""nodes""#,
        &format!(r#""comments": {comments}, "nodes""#),
        1,
    )
}

#[test]
fn comments_round_trip() {
    let json = with_comments(
        r##"[
        { "text": "Base noise\nkeep it soft", "pos": [-20, -40.5], "size": [300, 180], "color": "#33445580" },
        { "pos": [400, 0], "size": [120, 60] } ]"##,
    );
    let graph = common::graph(&json);
    assert_eq!(
        graph.comments,
        [
            Comment {
                text: "Base noise\nkeep it soft".into(),
                pos: [-20.0, -40.5],
                size: [300.0, 180.0],
                color: "#33445580".into(),
            },
            Comment::new([400.0, 0.0], [120.0, 60.0]),
        ]
    );
    assert_eq!(graph.comments[1].text, "");
    assert_eq!(graph.comments[1].color, Comment::default_color());
    assert_eq!(validate(&graph), vec![]);

    let saved = graph.to_json();
    let back = Graph::from_json(&saved).unwrap();
    assert_eq!(back, graph);
    assert_eq!(back.to_json(), saved);
    let value: serde_json::Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(value["comments"][1]["color"], "#4a5a6a");
    assert_eq!(value["comments"][1]["text"], "");
}

#[test]
fn a_new_graph_has_no_comments_and_saves_none() {
    let graph = Graph::new();
    assert!(graph.comments.is_empty());
    assert!(!graph.to_json().contains("comments"));
    let comment = Comment::new([1.0, 2.0], [3.0, 4.0]);
    assert_eq!(
        (comment.text.as_str(), comment.pos, comment.size),
        ("", [1.0, 2.0], [3.0, 4.0])
    );
    assert!(texgraph_core::kernels::gradient::parse_hex_color(&comment.color).is_some());
}

#[test]
fn example_files_load_and_save_without_comments() {
    let examples = common::examples();
    assert!(!examples.is_empty());
    for (stem, graph) in examples {
        assert!(graph.comments.is_empty(), "{stem}");
        let saved = graph.to_json();
        let value: serde_json::Value = serde_json::from_str(&saved).unwrap();
        let mut keys: Vec<_> = value.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        let mut expected = vec!["format", "nodes", "settings", "version"];
        if graph.name.is_some() {
            expected.push("name");
        }
        if !graph.doc.is_empty() {
            expected.push("doc");
        }
        expected.sort();
        assert_eq!(keys, expected, "{stem}");
        assert_eq!(Graph::from_json(&saved).unwrap().to_json(), saved, "{stem}");
    }
}

/// Checks that `comment` (one comment's JSON) gives exactly one error, at
/// `comments[0].<field>`, containing `words`.
fn assert_bad(comment: &str, field: &str, words: &str) {
    let graph = common::graph(&with_comments(&format!("[{comment}]")));
    let found = diagnose(&graph);
    assert_eq!(found.warnings, vec![], "{comment}");
    assert_eq!(found.errors.len(), 1, "{comment}: {:?}", found.errors);
    let error = &found.errors[0];
    assert_eq!(
        error.location,
        Location::graph_field(&format!("comments[0].{field}")),
        "{comment}"
    );
    assert!(
        error.message.contains(words),
        "{comment}: '{}' lacks '{words}'",
        error.message
    );
    assert!(
        error
            .to_string()
            .starts_with(&format!("field 'comments[0].{field}': ")),
        "{error}"
    );
}

#[test]
fn each_bad_comment_value_is_an_error_naming_the_field() {
    assert_bad(
        r#"{ "pos": [0, 0], "size": [10, 10], "color": "teal" }"#,
        "color",
        "not a color",
    );
    assert_bad(
        r##"{ "pos": [0, 0], "size": [10, 10], "color": "#12345" }"##,
        "color",
        "not a color",
    );
    assert_bad(r#"{ "pos": [1e39, 0], "size": [10, 10] }"#, "pos", "finite");
    assert_bad(
        r#"{ "pos": [0, -1e39], "size": [10, 10] }"#,
        "pos",
        "finite",
    );
    assert_bad(r#"{ "pos": [0, 0], "size": [0, 10] }"#, "size", "above 0");
    assert_bad(r#"{ "pos": [0, 0], "size": [10, -5] }"#, "size", "above 0");
    assert_bad(
        r#"{ "pos": [0, 0], "size": [100001, 10] }"#,
        "size",
        "at most 100000",
    );
    assert_bad(
        r#"{ "pos": [0, 0], "size": [10, 1e39] }"#,
        "size",
        "at most 100000",
    );
    let long = "é".repeat(10_001);
    assert_bad(
        &format!(r#"{{ "pos": [0, 0], "size": [10, 10], "text": "{long}" }}"#),
        "text",
        "10001 characters",
    );

    // The limits themselves are fine.
    let text = "é".repeat(10_000);
    let graph = common::graph(&with_comments(&format!(
        r#"[{{ "pos": [0, 0], "size": [100000, 0.5], "text": "{text}" }}]"#
    )));
    assert_eq!(validate(&graph), vec![]);

    // Values set in code are checked too, with the comment's index.
    let mut graph = common::graph(PERLIN);
    graph.comments.push(Comment::new([0.0, 0.0], [10.0, 10.0]));
    graph
        .comments
        .push(Comment::new([f32::NAN, 0.0], [10.0, f32::INFINITY]));
    let fields: Vec<_> = validate(&graph)
        .into_iter()
        .map(|e| e.location.field.unwrap())
        .collect();
    assert_eq!(fields, ["comments[1].pos", "comments[1].size"]);
}

#[test]
fn malformed_comments_are_refused_when_loading_with_their_index() {
    let refused = |comments: &str| match Graph::from_json(&with_comments(comments)) {
        Err(Error::Invalid(problems)) => problems,
        other => panic!("{comments}: expected a refusal, got {other:?}"),
    };
    let problems = refused(r#"[ { "pos": [0, 0], "size": [1, 1] }, { "pos": [0, 0] } ]"#);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].location, Location::graph_field("comments[1]"));
    assert!(problems[0].message.contains("size"), "{problems:?}");

    let problems = refused(r##"[ { "pos": [0, 0], "size": [1, 1], "colour": "#000000" } ]"##);
    assert_eq!(problems[0].location, Location::graph_field("comments[0]"));
    assert!(problems[0].message.contains("unknown field `colour`"));

    let problems = refused(r#"{ "pos": [0, 0] }"#);
    assert_eq!(problems[0].location, Location::graph_field("comments"));
}

#[test]
fn comments_do_not_change_the_image() {
    let plain = common::graph(PERLIN);
    let commented = common::graph(&with_comments(
        r##"[ { "text": "noise", "pos": [-10, -10], "size": [400, 200], "color": "#ff0000" } ]"##,
    ));
    let draw = |graph: &Graph| {
        let program = compile(graph, None).unwrap();
        render(&program, 32, 32, RenderOptions::default(), &|_| {}).unwrap()
    };
    assert_eq!(draw(&plain).data, draw(&commented).data);
}

#[test]
fn a_bad_comment_stops_compiling_the_graph_but_not_node_previews() {
    let graph = common::graph(&with_comments(
        r#"[ { "pos": [0, 0], "size": [10, 10], "color": "red" } ]"#,
    ));
    let error = compile(&graph, None).unwrap_err();
    assert_eq!(
        error.problems()[0].location,
        Location::graph_field("comments[0].color")
    );
    compile_node(&graph, "noise", None).expect("a node preview ignores comments");
}
