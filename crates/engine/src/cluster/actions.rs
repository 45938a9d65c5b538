//! What people do to the cluster during a scenario: create the objects, edit their spec, label
//! them, delete them, kill the operator, roll out a new version ([`super::intervention`]).

use crate::digits::Digits;
use crate::object::{Json, Object, Text};
use crate::sim::{Context, EventKind};

use super::intervention::Intervention;
use super::{Cluster, Ev};

/// Sets `out` to `prefix` followed by `n` in decimal (`ns-7`, `demo-1234`): the names of the
/// scenario's objects, written 150 000 times at the incident's scale.
fn numbered(out: &mut String, prefix: &str, n: u32) {
    out.clear();
    out.push_str(prefix);
    Digits::new(u64::from(n), 1, 10).push_to(out);
}

/// Adds one to the number `text` ends with (`demo-1299` → `demo-1300`), a digit at a time from
/// its end: the next object's name without writing its number anew (a text without a trailing
/// number gets `1`).
fn increment_trailing_number(text: &mut String) {
    let mut nines = 0;
    while text.ends_with('9') {
        text.pop();
        nines += 1;
    }
    match text.pop() {
        Some(digit @ '0'..='8') => text.push(char::from(digit as u8 + 1)),
        Some(other) => {
            text.push(other);
            text.push('1');
        }
        None => text.push('1'),
    }
    text.extend(std::iter::repeat_n('0', nines));
}

impl Cluster {
    /// Creates the scenario's objects directly in storage (as if applied before the run), from
    /// index `from`, [`super::CREATE_OBJECTS_PER_EVENT`] per event; the last part records the
    /// creation and sends the watch events.
    pub(super) fn create_objects(&mut self, ctx: &mut Context<'_, Ev>, from: u32) {
        let o = self.scenario.objects.clone();
        let to = from
            .saturating_add(super::CREATE_OBJECTS_PER_EVENT)
            .min(o.count);
        // the objects share the spec's members until one of them changes (an edit copies them)
        let spec = Json::object([("replicas", Json::from(1))]);
        // the kind's text is shared by the objects (their namespace and name are their key's)
        let kind = Text::from(self.scenario.crd.kind.as_str());
        let (mut namespace, mut name) = (String::new(), String::new());
        // the part's first name written out, each next one counted up from it
        numbered(&mut name, "demo-", from);
        for i in from..to {
            // object `i` is in namespace `i % namespaces`
            numbered(&mut namespace, "ns-", i % o.namespaces);
            let mut obj = Object::named(kind.clone(), &namespace, &name);
            increment_trailing_number(&mut name);
            obj.spec = spec.clone();
            obj.size_bytes = o.size_bytes;
            obj.metadata.set_finalizers(o.finalizers.clone());
            self.api.server.create_direct(obj, ctx.now());
            self.telemetry.count_request("POST", 201);
        }
        if to < o.count {
            ctx.continue_with(Ev::CreateObjects { from: to });
            return;
        }
        let kind = EventKind::Created {
            objects: u64::from(o.count),
        };
        ctx.trace(None, Some(self.api.server.revision()), kind);
        self.fan_out_events(ctx);
        self.workload_objects_created(ctx);
    }

    /// Runs scenario action `index` as a user with kubectl.
    pub(super) fn run_action(&mut self, ctx: &mut Context<'_, Ev>, index: usize) {
        let Some(action) = self.scenario.actions.get(index).cloned() else {
            return;
        };
        if let Some(every) = action.every {
            let next = ctx.now() + every;
            if action
                .until
                .is_none_or(|u| next <= crate::time::SimTime::ZERO + u)
            {
                ctx.schedule_at(next, Ev::Action(index));
            }
        }
        // The scenario was validated, so every action reads as an intervention.
        if let Ok(intervention) = Intervention::of_action(&action) {
            self.apply_intervention(ctx, &intervention);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_numbered_name_is_the_prefix_and_the_decimal_index_and_replaces_the_last_one() {
        let mut name = String::from("left over");
        numbered(&mut name, "demo-", 149_999);
        assert_eq!(name, "demo-149999");
        numbered(&mut name, "ns-", 0);
        assert_eq!(name, "ns-0");
    }

    #[test]
    fn counting_a_name_up_gives_the_next_numbered_name_across_every_carry() {
        let mut name = String::new();
        numbered(&mut name, "demo-", 0);
        for n in 1..=120_000u32 {
            increment_trailing_number(&mut name);
            assert_eq!(name, format!("demo-{n}"));
        }
        let mut bare = String::from("9");
        increment_trailing_number(&mut bare);
        assert_eq!(bare, "10");
        let mut no_number = String::from("demo-");
        increment_trailing_number(&mut no_number);
        assert_eq!(no_number, "demo-1");
    }
}
