//! What a finished per-pixel stage keeps, and where its values live.
//!
//! The compiler emits every value into a slot of its own (each node computes all its
//! outputs, a shared subexpression is emitted once). Before the stage is handed to the
//! engine, [`live`] drops the operations whose results nothing reads, and [`pack`] lets
//! values whose last reader has run give their slot to later ones. A slot holds a whole
//! tile of samples (16 KiB), so a stage of hundreds of operations would otherwise stream
//! megabytes per tile through the caches; packed, it touches only the values alive at
//! once. Operations are pure and write all of their destination, so neither changes a
//! single value.

use std::collections::{BTreeSet, HashMap};

use texgraph_engine::program::{Instr, Operand, Slot, U_SLOT, V_SLOT};

/// The slots `operand` reads (none for a constant).
fn slot_of(operand: Operand) -> Option<Slot> {
    match operand {
        Operand::Slot(s) => Some(s),
        Operand::Const(_) => None,
    }
}

/// The instructions whose results reach `channels`, in their order.
pub(super) fn live(instrs: Vec<Instr>, channels: &[Operand]) -> Vec<Instr> {
    let mut needed: std::collections::HashSet<Slot> =
        channels.iter().copied().filter_map(slot_of).collect();
    let mut kept = vec![false; instrs.len()];
    for (k, instr) in instrs.iter().enumerate().rev() {
        if (instr.dst..instr.dst + instr.op.arity()).any(|s| needed.contains(&s)) {
            kept[k] = true;
            needed.extend(instr.op.operands().into_iter().filter_map(slot_of));
        }
    }
    instrs
        .into_iter()
        .zip(kept)
        .filter_map(|(instr, keep)| keep.then_some(instr))
        .collect()
}

/// Renumbers the slots of `instrs` and `channels` so that a slot is reused once the last
/// instruction reading its value has run; returns the number of slots used. The
/// coordinate slots keep their numbers, a destination never shares a slot with an
/// operand of its own instruction (the engine moves destinations out while reading
/// operands), and an instruction's several results stay side by side.
pub(super) fn pack(instrs: &mut [Instr], channels: &mut [Operand]) -> Slot {
    // The last instruction reading each value; the channels are read after all of them.
    let mut last_read: HashMap<Slot, usize> = HashMap::new();
    for (k, instr) in instrs.iter().enumerate() {
        for s in instr.op.operands().into_iter().filter_map(slot_of) {
            last_read.insert(s, k);
        }
    }
    for s in channels.iter().copied().filter_map(slot_of) {
        last_read.insert(s, usize::MAX);
    }
    let fixed = |s: Slot| s == U_SLOT || s == V_SLOT;
    let mut renamed: HashMap<Slot, Slot> = HashMap::new();
    let rename = |renamed: &HashMap<Slot, Slot>, s: Slot| {
        if fixed(s) { s } else { renamed[&s] }
    };
    let mut free: BTreeSet<Slot> = BTreeSet::new();
    // The coordinate slots come first.
    let mut count: Slot = 2;
    const { assert!(U_SLOT < 2 && V_SLOT < 2) };
    for (k, instr) in instrs.iter_mut().enumerate() {
        let reads: Vec<Slot> = instr
            .op
            .operands()
            .into_iter()
            .filter_map(slot_of)
            .collect();
        instr.op.map_operands(|o| match o {
            Operand::Slot(s) => Operand::Slot(rename(&renamed, s)),
            constant => constant,
        });
        let arity = instr.op.arity();
        let start = take_run(&mut free, arity).unwrap_or_else(|| {
            let start = count;
            count += arity;
            start
        });
        for i in 0..arity {
            renamed.insert(instr.dst + i, start + i);
        }
        // Results nothing reads, and operands read for the last time, free their slots
        // now that the destination is chosen.
        for i in 0..arity {
            if !last_read.contains_key(&(instr.dst + i)) {
                free.insert(start + i);
            }
        }
        for s in reads {
            if !fixed(s) && last_read.get(&s) == Some(&k) {
                free.insert(renamed[&s]);
            }
        }
        instr.dst = start;
    }
    for channel in channels.iter_mut() {
        if let Operand::Slot(s) = channel {
            *s = rename(&renamed, *s);
        }
    }
    count
}

/// The first of `len` consecutive free slots, taken out of `free`.
fn take_run(free: &mut BTreeSet<Slot>, len: Slot) -> Option<Slot> {
    let start = free
        .iter()
        .copied()
        .find(|&s| (1..len).all(|i| free.contains(&(s + i))))?;
    for i in 0..len {
        free.remove(&(start + i));
    }
    Some(start)
}
