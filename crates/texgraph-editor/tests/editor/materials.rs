//! Materials in the editor: outputs show their usage on the canvas, the inspector offers
//! usages as a menu, and the export dialog writes a preset's files.

use eframe::egui::{Key, Modifiers, PointerButton, accesskit::Role};
use egui_kittest::kittest::Queryable;
use texgraph_core::ParamValue;

use crate::common::*;

#[test]
fn outputs_show_their_usage_and_the_inspector_changes_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "stone.json", STONE);
    // Three outputs, three different titles, and pins named after what they take.
    for title in [
        "base: Output · Base color",
        "nrm: Output · Normal",
        "rough: Output · Roughness",
    ] {
        on_canvas(&h, title);
    }
    assert!(
        h.query_by_label("roughness").is_some(),
        "the pin says roughness"
    );
    assert!(h.query_by_label("basecolor").is_some());

    let title = on_canvas(&h, "rough: Output · Roughness");
    click_at(&mut h, title.center(), PointerButton::Primary);
    assert_eq!(h.state().selected.as_deref(), Some("rough"));
    // The inspector's usage menu: roughness becomes a mask.
    combo(&h, "roughness").click();
    h.run_steps(2);
    h.get_all_by_label("mask").last().unwrap().click();
    h.run_steps(3);
    assert_eq!(
        h.state().graph.node("rough").unwrap().params.get("usage"),
        Some(&ParamValue::Text("mask".into()))
    );
    on_canvas(&h, "rough: Output · Mask");
}

#[test]
fn the_export_dialog_writes_a_presets_files_into_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "stone.json", STONE);
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run_steps(2);
    combo(&h, "none: images").click();
    h.run_steps(2);
    h.get_by_label("unreal").click();
    h.run_steps(3);
    assert_eq!(h.state().export.material.as_deref(), Some("unreal"));
    // The dialog lists the graph's maps with their usages, and the files it will write.
    assert!(h.query_by_label("rough: Roughness").is_some());
    assert!(h.query_by_label("nrm: Normal").is_some());
    let writes = "writes T_stone_BC.png, T_stone_N.png, T_stone_ORM.png, T_stone_H.png";
    assert!(h.query_by_label(writes).is_some(), "{writes}");
    let folder = dir.path().join("stone_maps");
    assert_eq!(h.state().export.folder, folder.display().to_string());
    h.state_mut().export.preset = Some(256);
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.run_steps(2);
    wait_until(&mut h, "the export", |app| !app.export.message.is_empty());
    assert!(
        h.state().export.message.starts_with("wrote"),
        "{}",
        h.state().export.message
    );
    let mut written: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "T_stone_BC.png",
            "T_stone_H.png",
            "T_stone_N.png",
            "T_stone_ORM.png"
        ]
    );
    let height = image::open(folder.join("T_stone_H.png")).unwrap();
    assert_eq!(
        height.color(),
        image::ColorType::L16,
        "the height is 16-bit"
    );
    assert_eq!(height.width(), 256);

    // A glTF set: the message names the scene and its buffer as well as the maps.
    combo(&h, "unreal").click();
    h.run_steps(2);
    h.get_by_label("gltf").click();
    h.run_steps(3);
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.run_steps(2);
    wait_until(&mut h, "the glTF export", |app| {
        app.export.message.contains("stone.gltf")
    });
    let message = h.state().export.message.clone();
    for file in ["stone.gltf", "stone.bin"] {
        assert!(folder.join(file).exists(), "{file}");
        assert!(
            message.contains(&*folder.join(file).to_string_lossy()),
            "{message}"
        );
    }
}

#[test]
fn a_new_or_duplicated_output_takes_a_free_name_and_usage() {
    use texgraph_editor::command::Command;
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "stone.json", STONE);
    h.state_mut().push(Command::AddNode {
        kind: "output",
        pos: None,
    });
    h.run_steps(2);
    h.state_mut().push(Command::AddNode {
        kind: "output",
        pos: None,
    });
    h.run_steps(2);
    h.state_mut().push(Command::Duplicate(vec!["rough".into()]));
    h.run_steps(2);
    let graph = &h.state().graph;
    let param = |id: &str, name: &str| graph.node(id).unwrap().params.get(name).cloned();
    assert_eq!(
        param("output1", "name"),
        None,
        "the first keeps the default name, color"
    );
    assert_eq!(
        param("output2", "name"),
        Some(ParamValue::Text("color2".into()))
    );
    let copy = graph.nodes.last().unwrap().id.clone();
    assert_eq!(
        param(&copy, "name"),
        Some(ParamValue::Text("rough2".into()))
    );
    assert_eq!(
        param(&copy, "usage"),
        None,
        "roughness is taken: the copy is a plain image"
    );
    // Only the new outputs' empty inputs are left to do: no name or usage is taken twice.
    let errors = texgraph_core::diagnose(graph).errors;
    assert!(
        errors
            .iter()
            .all(|e| e.location.field.as_deref() == Some("color")),
        "{errors:?}"
    );
}

#[test]
fn the_users_preset_file_adds_presets_and_a_bad_one_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "stone.json", STONE);
    let presets = dir.path().join("presets.json");
    std::fs::write(
        &presets,
        r#"[{"name": "studio", "files": [{"file": "{graph}_RN.{ext}", "channels": {"r": "roughness", "g": "normal.g"}}]}]"#,
    )
    .unwrap();
    h.state_mut().export.user_presets = Some(presets.clone());
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run_steps(2);
    combo(&h, "none: images").click();
    h.run_steps(2);
    h.get_by_label("studio").click();
    h.run_steps(3);
    assert!(h.query_by_label("writes stone_RN.png").is_some());
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.run_steps(2);
    wait_until(&mut h, "the export", |app| !app.export.message.is_empty());
    assert!(
        dir.path().join("stone_maps/stone_RN.png").is_file(),
        "{}",
        h.state().export.message
    );

    // A broken file: the built-ins stay, and the dialog says what is wrong where.
    std::fs::write(
        &presets,
        r#"[{"name": "studio", "files": [{"file": "x.png", "map": "rough"}]}]"#,
    )
    .unwrap();
    h.key_press(Key::Escape);
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run_steps(3);
    let problem = h.state().export.presets_problem.clone().unwrap();
    assert!(
        problem.contains("presets.json") && problem.contains("files[0].map"),
        "{problem}"
    );
    assert!(
        h.state().export.material.is_none(),
        "the preset that went away is not kept"
    );
    assert!(h.state().export.presets.iter().any(|p| p.name == "unreal"));
}
