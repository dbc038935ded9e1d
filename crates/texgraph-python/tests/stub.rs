//! The module's type stub (`texgraph.pyi`) against the tables it copies: the node ids of
//! the registry and the format ids of the format table, in their order. pytest checks the
//! same from Python (`test_the_stub_declares_every_node_and_everything_the_module_has`);
//! this one runs with `cargo test`, which also builds the module pytest imports.

use texgraph_core::export::Format;
use texgraph_core::registry::NODES;

/// The quoted strings of the `Literal[...]` the stub assigns to `name`.
fn literal(stub: &str, name: &str) -> Vec<String> {
    let start = stub
        .find(&format!("\n{name} = Literal["))
        .unwrap_or_else(|| panic!("the stub declares {name}"));
    let body = &stub[start..];
    let body = &body[body.find('[').unwrap() + 1..body.find(']').unwrap()];
    body.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| item.trim_matches('"').to_owned())
        .collect()
}

fn stub() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/texgraph.pyi")).unwrap()
}

#[test]
fn the_stub_names_every_format_of_the_table() {
    let ids: Vec<String> = Format::ids().map(str::to_owned).collect();
    assert_eq!(literal(&stub(), "FormatId"), ids);
}

#[test]
fn the_stub_names_every_node_of_the_registry() {
    let ids: Vec<String> = NODES.iter().map(|n| n.id.to_owned()).collect();
    assert!(ids.len() > 40);
    assert_eq!(literal(&stub(), "NodeId"), ids);
}
