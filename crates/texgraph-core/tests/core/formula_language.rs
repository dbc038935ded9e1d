//! The `formula` node: its functions against f64, its parser on a corpus of right and
//! wrong formulas, random formulas against a tree-walking interpreter written here, and
//! formulas that spell out built-in nodes against those nodes' bits.

use crate::common::{self, graph, render_graph, same_bits, seams};
use crate::invariants;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use texgraph_core::formula;
use texgraph_core::kernels::scalar::{Binary, Unary, binary, unary};
use texgraph_core::{Image, RenderOptions, check};

/// A graph of one formula node (with `params`, a JSON object's inside) feeding the output.
fn formula_graph(expression: &str, params: &str, tileable: bool) -> texgraph_core::Graph {
    let expression = serde_json::to_string(expression).unwrap();
    let comma = if params.is_empty() { "" } else { "," };
    graph(&format!(
        r#"{{ "format": "texgraph", "version": 2, "settings": {{ "tileable": {tileable} }},
             "nodes": [
               {{ "id": "f", "type": "formula", "params": {{ "expression": {expression}{comma} {params} }} }},
               {{ "id": "out", "type": "output", "inputs": {{ "color": "f" }} }} ] }}"#
    ))
}

fn render(expression: &str, size: u32) -> Image {
    render_graph(
        &formula_graph(expression, "", false),
        None,
        size,
        RenderOptions::default(),
    )
}

/// A function's worst error over `samples` points of [low, high] against `exact`, the
/// error measured by `error(got, exact, x)`.
fn worst(
    f: impl Fn(f32) -> f32,
    exact: impl Fn(f64) -> f64,
    (low, high): (f64, f64),
    error: impl Fn(f64, f64, f64) -> f64,
) -> f64 {
    let samples = 400_000;
    (0..=samples)
        .map(|i| {
            let x = (low + (high - low) * f64::from(i) / f64::from(samples)) as f32;
            let got = f64::from(f(x));
            error(got, exact(f64::from(x)), f64::from(x))
        })
        .fold(0.0, f64::max)
}

fn absolute(got: f64, exact: f64, _: f64) -> f64 {
    (got - exact).abs()
}

fn relative(got: f64, exact: f64, _: f64) -> f64 {
    (got - exact).abs() / exact.abs()
}

/// The bounds docs/formula.md states, checked against Rust's f64 functions.
#[test]
fn functions_are_within_their_documented_error_of_f64() {
    let u = |f: Unary| move |x: f32| unary(f, x);
    // sin and cos: 1e-6 + 1.2e-7·|x| (the argument's own rounding grows with it).
    let trig = |got: f64, exact: f64, x: f64| (got - exact).abs() / (1e-6 + 1.2e-7 * x.abs());
    for range in [(-10.0, 10.0), (-1000.0, 1000.0)] {
        assert!(worst(u(Unary::Sin), f64::sin, range, trig) <= 1.0, "sin");
        assert!(worst(u(Unary::Cos), f64::cos, range, trig) <= 1.0, "cos");
    }
    // tan: 1e-6·(1 + tan²x), the slope of tan.
    let tan = |got: f64, exact: f64, _: f64| (got - exact).abs() / (1e-6 * (1.0 + exact * exact));
    assert!(worst(u(Unary::Tan), f64::tan, (-1.55, 1.55), tan) <= 1.0);
    // The inverse functions: 4e-6 radians.
    assert!(worst(u(Unary::Asin), f64::asin, (-1.0, 1.0), absolute) <= 4e-6);
    assert!(worst(u(Unary::Acos), f64::acos, (-1.0, 1.0), absolute) <= 4e-6);
    assert!(worst(u(Unary::Atan), f64::atan, (-1e4, 1e4), absolute) <= 4e-6);
    let mut atan2 = 0.0f64;
    for i in 0..2000 {
        let angle = f64::from(i) / 2000.0 * std::f64::consts::TAU;
        for r in [1e-4, 0.3, 7.0, 5e4] {
            let (y, x) = ((r * angle.sin()) as f32, (r * angle.cos()) as f32);
            let error =
                (f64::from(binary(Binary::Atan2, y, x)) - f64::from(y).atan2(f64::from(x))).abs();
            atan2 = atan2.max(error.min(std::f64::consts::TAU - error));
        }
    }
    assert!(atan2 <= 4e-6, "atan2 {atan2}");
    // exp: relative 1e-6 + 6e-8·|x|; sqrt: correctly rounded.
    let exp = |got: f64, exact: f64, x: f64| relative(got, exact, x) / (1e-6 + 6e-8 * x.abs());
    assert!(worst(u(Unary::Exp), f64::exp, (-80.0, 27.0), exp) <= 1.0);
    // log: 1e-6 + 1e-7·|ln x|.
    let log = |got: f64, exact: f64, _: f64| (got - exact).abs() / (1e-6 + 1e-7 * exact.abs());
    assert!(worst(u(Unary::Log), f64::ln, (1e-30, 1e-3), log) <= 1.0);
    assert!(worst(u(Unary::Log), f64::ln, (1e-3, 1e30), log) <= 1.0);
    assert!(worst(u(Unary::Sqrt), f64::sqrt, (1e-20, 1e12), relative) <= 6e-8);
    // pow: relative 2e-6 over x in [0, 20], y in [−5, 5].
    let mut pow = 0.0f64;
    for i in 1..=400 {
        for j in 0..=200 {
            let (x, y) = (i as f32 / 20.0, -5.0 + j as f32 / 20.0);
            let exact = f64::from(x).powf(f64::from(y));
            pow = pow.max(relative(f64::from(binary(Binary::Power, x, y)), exact, 0.0));
        }
    }
    assert!(pow <= 2e-6, "pow {pow}");
}

/// What the documentation promises where the mathematics has no answer.
#[test]
fn undefined_points_have_their_documented_values() {
    let image = render(
        "let z = u * 0;\n\
         vec4(1 / z + sqrt(-1 - u), log(z), mod(5, z) + pow(-2, 0.5), asin(2) + acos(-3) + tan(pi / 2) * 0)",
        4,
    );
    let pixel: Vec<f32> = image.data[..4].to_vec();
    let log_zero = f64::from(f32::MIN_POSITIVE).ln() as f32;
    assert_eq!(pixel[0], 0.0);
    assert!((pixel[1] - log_zero).abs() < 1e-4, "{pixel:?}");
    assert_eq!(pixel[2], 0.0);
    let expected = std::f32::consts::FRAC_PI_2 + std::f32::consts::PI;
    assert!((pixel[3] - expected).abs() < 1e-5, "{pixel:?}");
    // tan at a quarter turn saturates rather than overflowing.
    let huge = render("tan(pi / 2) * 1e30", 2);
    assert!(
        huge.data.iter().all(|v| v.is_finite()),
        "{:?}",
        &huge.data[..4]
    );
}

/// (formula, the message's start after "column N: ", the column) for formulas that are
/// wrong whatever is connected; each must be refused by validation with that message.
const WRONG: &[(&str, &str, usize)] = &[
    (
        "sn(u * 6.28)",
        "unknown function \"sn\" (did you mean \"sin\"?)",
        1,
    ),
    (
        "sin(u) + smoothstp(0, 1, v)",
        "unknown function \"smoothstp\" (did you mean \"smoothstep\"?)",
        10,
    ),
    ("u + w", "unknown name \"w\"", 5),
    (
        "let r = u;\nrr * 2",
        "unknown name \"rr\" (did you mean \"r\"?)",
        1,
    ),
    ("sin", "\"sin\" is a function: write sin(…)", 1),
    ("u(2)", "\"u\" is a variable, not a function", 1),
    ("u +", "expected a value, found the end of the formula", 4),
    (
        "(u + v",
        "expected ')' to close the '(' at column 1, found the end of the formula",
        7,
    ),
    ("u ^ 2", "'^' is not an operator here; write pow(a, b)", 3),
    ("u & v", "'&' alone is not an operator", 3),
    ("a < b < c", "comparisons do not chain", 7),
    ("", "the formula is empty", 1),
    ("let k = 2;", "the formula ends after its 'let's", 11),
    (
        "let k = 2\nk",
        "expected ';' to end 'let k = …', found 'k'",
        1,
    ),
    ("let u = 2; u", "\"u\" is a built-in variable", 5),
    ("let k = 1; let k = 2; k", "\"k\" is already bound", 16),
    ("u; v", "';' ends a 'let' only", 2),
    ("u)", "this ')' closes nothing", 2),
    (
        "clamp(u, 0)",
        "clamp(x, low, high) takes 3 arguments, not 2",
        1,
    ),
    (
        "atan()",
        "atan(y) or (y, x) takes 1 to 2 arguments, not 0",
        1,
    ),
    (
        "vec3(u, v, 0) + vec2(u, v)",
        "cannot combine a vec3 with a vec2",
        1,
    ),
    ("vec4(u, v, 1)", "vec4 needs 4 components", 1),
    ("vec2(u, v).z", "a vec2 has no .z (it has .x .y)", 12),
    (
        "vec3(u).xg",
        ".xg: components are letters of xyzw or of rgba, not mixed",
        9,
    ),
    (
        "perlin(vec2(u, v), 4, p1)",
        "a seed must be a whole number",
        23,
    ),
    (
        "perlin(vec2(u, v), 4, 1.5)",
        "a seed must be a whole number",
        23,
    ),
    (
        "perlin(u, 4, 0)",
        "perlin's position must be a vec2 or a vec3, not a number",
        8,
    ),
    (
        "value(vec3(u), 4, 0)",
        "value's position must be a vec2, not a vec3",
        7,
    ),
    (
        "perlin(vec2(u, v), vec2(4), 0)",
        "perlin's frequency must be a number, not a vec2",
        20,
    ),
    ("1e40", "this number is too large for a 32-bit float", 1),
    ("u $ v", "unexpected character '$'", 3),
    ("let = 2; u", "expected a name after 'let'", 5),
    ("u + let", "'let' goes at the start of the formula", 5),
    ("vec2(u, v).", "expected components after '.'", 12),
    (
        "vec4(1).xyzwx",
        ".xyzwx: at most four components may be picked",
        9,
    ),
];

#[test]
fn wrong_formulas_are_refused_with_their_message_and_column() {
    for &(text, message, column) in WRONG {
        let error = formula::check(text).expect_err(text);
        let (_, found) = formula::position(text, error.span.start);
        assert_eq!(found, column, "{text:?}: {}", error.message);
        assert!(
            error.message.starts_with(message),
            "{text:?}: {} (wanted {message})",
            error.message
        );
        // Validation names the node and the field, then the column, with a caret.
        let problems = check(&formula_graph(text, "", false)).errors;
        let shown = problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n");
        let line = formula::position(text, error.span.start).0;
        let place = if text.contains('\n') {
            format!("line {line}, column {column}: ")
        } else {
            format!("column {column}: ")
        };
        assert!(
            shown.starts_with(&format!("node 'f', field 'expression': {place}{message}")),
            "{text:?}: {shown}"
        );
        let caret_line = shown.lines().last().unwrap();
        assert_eq!(
            caret_line.find('^'),
            Some(4 + column - 1),
            "{text:?}: {shown}"
        );
    }
}

/// Formulas that are right, each with the type it has with open inputs.
const RIGHT: &[(&str, usize)] = &[
    ("u", 1),
    ("-u + +v", 1),
    ("!(u > 0.5) || v <= 0.25 && u != v", 1),
    ("u > 0.5 ? vec3(1, 0, 0) : vec3(v)", 3),
    ("if(u < v, 1, 0)", 1),
    (
        "let p = vec2(u, v) - 0.5;\nlet r = length(p); // a comment\nsmoothstep(0.3, 0.29, r)",
        1,
    ),
    ("vec4(vec2(u, v), vec2(1)).barg", 4),
    ("vec3(u, v, 0).zyx.xy", 2),
    ("a.rgb * 2 + b", 3),
    ("a.xxxx", 4),
    ("u.y + v.rgb", 3),
    ("mix(vec3(0), vec3(1, 0.5, 0), v)", 3),
    ("clamp(vec2(u, v) * 3 - 1, 0, 1)", 2),
    ("atan(v - 0.5, u - 0.5) / tau + 0.5", 1),
    ("dot(normalize(vec3(u, v, 1)), vec3(0, 0, 1))", 1),
    ("distance(vec2(u, v), vec2(0.5)) * p1", 1),
    (
        "perlin(vec3(u, v, time), 8, 3) * cellular(vec2(u, v), 6, 1)",
        1,
    ),
    ("simplex(vec2(u, v), 4, 2 + 3) + value(vec2(u, v), 4, 0)", 1),
    (
        "cellular_edge(vec2(u, v), 5, 0) + cellular_id(vec3(u, v, 0), 5, 0)",
        1,
    ),
    ("random(floor(vec2(u, v) * 8), 4)", 1),
    ("x / width + y / height + degrees(radians(90)) % 7", 1),
    (
        "step(0.5, vec2(u, v)) * saturate(exp(u) - log(v + 1) + pow(u, 2.2))",
        2,
    ),
    (
        "abs(sign(u - 0.5)) + round(u * 3) + floor(u * 3) + ceil(v) + fract(u * 4) + mod(u, 0.3)",
        1,
    ),
    (
        "sqrt(u) + sin(u) + cos(v) + tan(u) + asin(u) + acos(v) + atan(u) + atan2(u, v)",
        1,
    ),
    ("min(u, v) + max(u, v) + 1e-3 + .5 + 2. + 3E2", 1),
];

#[test]
fn right_formulas_compile_to_their_type() {
    for &(text, width) in RIGHT {
        formula::check(text).unwrap_or_else(|e| panic!("{text:?}: {}", e.describe(text)));
        let image = render(text, 4);
        let expected_channels = if width == 1 { 1 } else { 4 };
        assert_eq!(image.channels, expected_channels, "{text:?}");
        assert!(image.data.iter().all(|v| v.is_finite()), "{text:?}");
    }
    // Too long, too deep and too big are refused, not attempted.
    let long = "u + ".repeat(3000) + "u";
    assert!(
        formula::check(&long)
            .unwrap_err()
            .message
            .contains("at most")
    );
    let deep = "(".repeat(100) + "u" + &")".repeat(100);
    assert!(
        formula::check(&deep)
            .unwrap_err()
            .message
            .contains("nests more than")
    );
    // Twelve operations a line: past the cap well within the length limit.
    let mut many = "let k0 = vec4(u, v, 1, 2);\n".to_owned();
    for i in 1..400 {
        many.push_str(&format!("let k{i}=normalize(k{});", i - 1));
    }
    many.push_str("k399");
    assert!(many.len() < formula::MAX_LENGTH);
    assert!(
        formula::check(&many)
            .unwrap_err()
            .message
            .contains("operations"),
        "an oversized formula must be refused"
    );
}

/// `perlin(vec2(u, v), 8, 0)` is the perlin node's pixels, and other formulas that spell
/// out a node give its bits too.
#[test]
fn formulas_that_spell_out_nodes_give_their_bits() {
    for tileable in [false, true] {
        for (expression, node) in [
            (
                "perlin(vec2(u, v), 8, 0)",
                r#"{ "type": "perlin", "params": { "frequency": 8 } }"#,
            ),
            (
                "cellular(vec2(u, v), 6, 3)",
                r#"{ "type": "cellular", "params": { "frequency": 6, "seed": 3 } }"#,
            ),
            (
                "simplex(vec2(u, v), 5, 2)",
                r#"{ "type": "simplex", "params": { "frequency": 5, "seed": 2 } }"#,
            ),
        ] {
            let node = node.replacen('{', r#"{ "id": "n","#, 1);
            let reference = graph(&format!(
                r#"{{ "format": "texgraph", "version": 2, "settings": {{ "tileable": {tileable} }},
                     "nodes": [ {node}, {{ "id": "out", "type": "output", "inputs": {{ "color": "n" }} }} ] }}"#
            ));
            let want = render_graph(&reference, None, 64, RenderOptions::default());
            let got = render_graph(
                &formula_graph(expression, "", tileable),
                None,
                64,
                RenderOptions::default(),
            );
            assert!(same_bits(&got, &want), "{expression} (tileable {tileable})");
        }
    }
}

/// Formulas written in u, v and fract of whole multiples tile without seams.
#[test]
fn formulas_in_texture_coordinates_tile_seamlessly() {
    for expression in [
        "let p = fract(vec2(u, v) * 6) - 0.5;\nsmoothstep(0.45, 0.3, length(p))",
        "0.5 + 0.5 * sin(tau * (3 * u + 2 * v)) * perlin(vec2(u, v), 5, 1)",
        "let t = fract(vec2(u, v) * 4);\nmin(t.x, t.y) + cellular(vec2(u, v), 7, 2) * 0.3",
    ] {
        let image = render_graph(
            &formula_graph(expression, "", true),
            None,
            128,
            RenderOptions::default(),
        );
        for (inside, across) in seams(&image) {
            assert!(
                across <= inside * 1.5 + 1e-4,
                "{expression}: a step of {across} across the edge, {inside} inside"
            );
        }
    }
}

/// A formula tree of the test's own, printed as text and evaluated in f64.
#[derive(Debug, Clone)]
enum Tree {
    Number(f64),
    U,
    V,
    P1,
    Call(&'static str, Vec<Tree>),
    Infix(&'static str, Box<Tree>, Box<Tree>),
    Negate(Box<Tree>),
    Conditional(Box<Tree>, Box<Tree>, Box<Tree>),
}

const P1: f64 = 0.375;

fn trees() -> impl Strategy<Value = Tree> {
    let leaf = prop_oneof![
        (-40i32..40).prop_map(|n| Tree::Number(f64::from(n) / 8.0)),
        Just(Tree::U),
        Just(Tree::V),
        Just(Tree::P1),
    ];
    leaf.prop_recursive(5, 40, 3, |inner| {
        let one = prop::sample::select(vec![
            "abs", "sin", "cos", "sqrt", "floor", "fract", "ceil", "sign", "atan", "saturate",
            "exp", "log",
        ]);
        let two = prop::sample::select(vec!["min", "max", "mod", "pow", "step", "atan2"]);
        let infix = prop::sample::select(vec!["+", "-", "*", "/", "<", ">=", "==", "&&", "||"]);
        prop_oneof![
            (one, inner.clone()).prop_map(|(f, a)| Tree::Call(f, vec![a])),
            (two, inner.clone(), inner.clone()).prop_map(|(f, a, b)| Tree::Call(f, vec![a, b])),
            (infix, inner.clone(), inner.clone()).prop_map(|(op, a, b)| Tree::Infix(
                op,
                Box::new(a),
                Box::new(b)
            )),
            inner.clone().prop_map(|a| Tree::Negate(Box::new(a))),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| Tree::Conditional(
                Box::new(c),
                Box::new(a),
                Box::new(b)
            )),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, t)| Tree::Call("mix", vec![a, b, t])),
            (inner.clone(), inner.clone(), inner)
                .prop_map(|(a, b, c)| Tree::Call("clamp", vec![a, b, c])),
        ]
    })
}

impl Tree {
    fn text(&self) -> String {
        match self {
            Tree::Number(v) => format!("{v:?}"),
            Tree::U => "u".into(),
            Tree::V => "v".into(),
            Tree::P1 => "p1".into(),
            Tree::Call(f, args) => format!(
                "{f}({})",
                args.iter().map(Tree::text).collect::<Vec<_>>().join(", ")
            ),
            Tree::Infix(op, a, b) => format!("({} {op} {})", a.text(), b.text()),
            Tree::Negate(a) => format!("-({})", a.text()),
            Tree::Conditional(c, a, b) => {
                format!("({} ? {} : {})", c.text(), a.text(), b.text())
            }
        }
    }

    /// The value in f64 with the language's rules, and whether it sits so near a
    /// discontinuity (a floor, a comparison, a division by almost 0) that f32 rounding
    /// may land on the other side.
    fn eval(&self, u: f64, v: f64) -> (f64, bool) {
        const SAT: f64 = 1e12;
        let sat = |x: f64| x.clamp(-SAT, SAT);
        let near_whole = |x: f64| (x - x.round()).abs() < 1e-4 * (1.0 + x.abs());
        let near = |a: f64, b: f64| (a - b).abs() < 1e-4 * (1.0 + a.abs() + b.abs());
        let truth = |b: bool| if b { 1.0 } else { 0.0 };
        match self {
            Tree::Number(x) => (*x, false),
            Tree::U => (u, false),
            Tree::V => (v, false),
            Tree::P1 => (P1, false),
            Tree::Negate(a) => {
                let (a, fa) = a.eval(u, v);
                (-a, fa)
            }
            Tree::Conditional(c, a, b) => {
                let (c, fc) = c.eval(u, v);
                let (x, f) = if c != 0.0 { a.eval(u, v) } else { b.eval(u, v) };
                (x, f || fc || c.abs() < 1e-4)
            }
            Tree::Infix(op, a, b) => {
                let ((a, fa), (b, fb)) = (a.eval(u, v), b.eval(u, v));
                let fragile = fa || fb;
                match *op {
                    // Sums of large terms lose their last digits to cancellation.
                    "+" => (sat(a + b), fragile || a.abs().max(b.abs()) > 1e3),
                    "-" => (sat(a - b), fragile || a.abs().max(b.abs()) > 1e3),
                    "*" => (sat(a * b), fragile),
                    "/" if b == 0.0 => (0.0, fragile),
                    "/" => (sat(a / b), fragile || b.abs() < 1e-3),
                    "<" => (truth(a < b), fragile || near(a, b)),
                    ">=" => (truth(a >= b), fragile || near(a, b)),
                    "==" => (truth(a == b), fragile || near(a, b) && a != b),
                    "&&" => (
                        truth(a != 0.0 && b != 0.0),
                        fragile || a.abs() < 1e-4 || b.abs() < 1e-4,
                    ),
                    "||" => (
                        truth(a != 0.0 || b != 0.0),
                        fragile || a.abs() < 1e-4 || b.abs() < 1e-4,
                    ),
                    _ => unreachable!(),
                }
            }
            Tree::Call(f, args) => {
                let values: Vec<(f64, bool)> = args.iter().map(|a| a.eval(u, v)).collect();
                let fragile = values.iter().any(|(_, f)| *f);
                let x = values[0].0;
                let y = values.get(1).map_or(0.0, |v| v.0);
                match *f {
                    "abs" => (x.abs(), fragile),
                    "sin" => (x.sin(), fragile || x.abs() > 100.0),
                    "cos" => (x.cos(), fragile || x.abs() > 100.0),
                    "sqrt" => (x.max(0.0).sqrt(), fragile || x.abs() < 1e-3),
                    "floor" => (x.floor(), fragile || near_whole(x)),
                    "ceil" => (x.ceil(), fragile || near_whole(x)),
                    "fract" => (x - x.floor(), fragile || near_whole(x)),
                    "sign" => (x.signum() * truth(x != 0.0), fragile || x.abs() < 1e-4),
                    "atan" => (x.atan(), fragile),
                    "saturate" => (x.clamp(0.0, 1.0), fragile),
                    "exp" => (sat(x.exp()), fragile || x > 20.0),
                    "log" => (
                        x.max(f64::from(f32::MIN_POSITIVE)).ln(),
                        fragile || x < 1e-3,
                    ),
                    "min" => (x.min(y), fragile),
                    "max" => (x.max(y), fragile),
                    "mod" if y == 0.0 => (0.0, fragile),
                    "mod" => (
                        sat(x - y * (x / y).floor()),
                        fragile || near_whole(x / y) || y.abs() < 1e-3,
                    ),
                    "pow" if x <= 0.0 => (
                        if y == 0.0 {
                            1.0
                        } else if y > 0.0 {
                            0.0
                        } else {
                            SAT
                        },
                        fragile || x.abs() < 1e-3,
                    ),
                    "pow" => {
                        let r = x.powf(y);
                        (
                            sat(r),
                            fragile || x < 1e-3 || r > 1e6 || (y * x.log2()).abs() > 30.0,
                        )
                    }
                    "step" => (truth(y >= x), fragile || near(x, y)),
                    "atan2" => (x.atan2(y), fragile || (x.abs() < 1e-3 && y <= 0.0)),
                    "mix" => {
                        let t = values[2].0;
                        let large = x.abs().max(y.abs()).max(t.abs()) > 1e3;
                        (sat(x + (y - x) * t), fragile || large)
                    }
                    "clamp" => (x.max(y).min(values[2].0), fragile),
                    _ => unreachable!("{f}"),
                }
            }
        }
    }
}

/// Random formulas: the compiled program against the interpreter above, within a tight
/// bound away from discontinuities; and every promise of `invariants` (finite, the same
/// bits on one and two threads and on other tile sizes).
#[test]
fn random_formulas_match_an_interpreter_and_keep_every_promise() {
    let mut runner = TestRunner::new(Config {
        cases: 300,
        failure_persistence: None,
        ..Config::default()
    });
    let compared = std::cell::Cell::new(0usize);
    let size = 8;
    let result = runner.run(&trees(), |tree| {
        let text = tree.text();
        let graph = formula_graph(&text, &format!("\"p1\": {P1}"), false);
        invariants::check_graph(&graph).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let image = render_graph(&graph, None, size, RenderOptions::default());
        for row in 0..size {
            for col in 0..size {
                let u = ((col as f32 + 0.5) / size as f32) as f64;
                let v = ((row as f32 + 0.5) / size as f32) as f64;
                let (want, fragile) = tree.eval(u, v);
                if fragile || want.abs() > 1e6 {
                    continue;
                }
                let got = f64::from(common::at(&image, col, row, 0));
                let bound = 1e-4 * (1.0 + want.abs());
                prop_assert!(
                    (got - want).abs() <= bound,
                    "{text} at ({u}, {v}): {got} against {want}"
                );
                compared.set(compared.get() + 1);
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // Most samples are compared, not skipped as fragile.
    assert!(
        compared.get() > 300 * 64 / 2,
        "only {} samples compared",
        compared.get()
    );
}

/// The formulas of docs/formula.md, each in a ```formula block.
fn documented_formulas() -> Vec<String> {
    let doc = std::fs::read_to_string(common::graphs_dir().join("../docs/formula.md")).unwrap();
    doc.split("```formula\n")
        .skip(1)
        .map(|block| block.split("```").next().unwrap().to_owned())
        .collect()
}

#[test]
fn the_documented_formulas_render_and_every_name_is_documented() {
    let formulas = documented_formulas();
    assert!(formulas.len() >= 16, "{} examples", formulas.len());
    for text in &formulas {
        formula::check(text).unwrap_or_else(|e| panic!("{}", e.describe(text)));
        // Noises in every input, so the examples that read them draw something.
        let expression = serde_json::to_string(text).unwrap();
        let graph = graph(&format!(
            r#"{{ "format": "texgraph", "version": 2, "settings": {{ "tileable": true }}, "nodes": [
                 {{ "id": "n1", "type": "perlin", "params": {{ "frequency": 3 }} }},
                 {{ "id": "n2", "type": "perlin", "params": {{ "frequency": 5, "seed": 4 }} }},
                 {{ "id": "f", "type": "formula",
                    "params": {{ "expression": {expression}, "p1": 0.5, "p2": 0.8, "p3": 1.2 }},
                    "inputs": {{ "a": "n1", "b": "n2", "c": "n1", "d": "n2" }} }},
                 {{ "id": "out", "type": "output", "inputs": {{ "color": "f" }} }} ] }}"#
        ));
        let image = render_graph(&graph, None, 64, RenderOptions::default());
        assert!(image.data.iter().all(|v| v.is_finite()), "{text}");
        // Not a flat image: every example draws something.
        let first = image.data[0];
        assert!(image.data.iter().any(|&v| v != first), "{text} is flat");
    }
    let doc = std::fs::read_to_string(common::graphs_dir().join("../docs/formula.md")).unwrap();
    for f in formula::FUNCTIONS {
        assert!(
            doc.contains(&format!("`{}(", f.name)),
            "{} is not documented",
            f.name
        );
    }
    for v in formula::VARIABLES {
        assert!(
            doc.contains(&format!("`{}`", v.name)),
            "{} is not documented",
            v.name
        );
    }
}

/// A formula's param exposed from a subgraph is set by the graph that includes it, with
/// the range the exposing gives it, and renders as if set on the node itself.
#[test]
fn exposed_formula_params_are_set_from_the_including_graph() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("stripes.json"),
        r#"{ "format": "texgraph", "version": 2, "nodes": [
            { "id": "f", "type": "formula", "params": { "expression": "fract(u * round(p1))", "p1": 4 } },
            { "id": "out", "type": "output", "inputs": { "color": "f" } }
        ], "exposed": [ { "name": "count", "target": "f.p1", "min": 1, "max": 32 } ] }"#,
    )
    .unwrap();
    let including = |count: f64| {
        let mut g = graph(&format!(
            r#"{{ "format": "texgraph", "version": 2, "nodes": [
                {{ "id": "s", "type": "graph", "params": {{ "file": "stripes.json", "count": {count} }} }},
                {{ "id": "out", "type": "output", "inputs": {{ "color": "s" }} }} ] }}"#
        ));
        g.resolve_paths(dir.path());
        g
    };
    let direct = render_graph(
        &formula_graph("fract(u * round(p1))", r#""p1": 9"#, false),
        None,
        32,
        RenderOptions::default(),
    );
    let through = render_graph(&including(9.0), None, 32, RenderOptions::default());
    assert!(same_bits(&direct, &through));
    // Past the exposed range, the including graph is refused, naming the param.
    let problems = check(&including(40.0)).errors;
    assert!(
        problems.iter().any(|p| p.to_string().contains("count")),
        "{problems:?}"
    );
}
