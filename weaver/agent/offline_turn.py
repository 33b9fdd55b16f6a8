"""The travel agent's offline turn: plan the tool calls from the message and memory, run them, compose the reply.

A mixin of ``TravelAgent``: ``_offline`` is what a message gets without a model (and
after a model's error): the planner picks the calls from the constraints in force,
places are widened step by step when nothing fits, bookings a changed date or party
size invalidates are made again, and ``_compose`` says the result in the user's language.
"""

from __future__ import annotations

import re
from ..fact_frames import frames_of
from ..filler import is_filler
from .agent_steps import StepWriter
from .cuisine import cuisine_note
from .history import PLAN_ASKED, agent_readings, asked_keys, history_text
from .intent_cues import asks_own_experience, domain_hits
from .lexicon import CITY_EN
from .memory import Known, MemoryItem
from .pending import awaiting, completes_pick
from .planner import AROUND, plan_turn
from .replan import rebook_text, rebookings
from .reply_phrases import date_said
from .replies import (
    ack_text,
    constraint_phrase,
    display_name,
    fmt_money,
    has_text,
    home_text,
    honest_text,
    own_experience_text,
    results_text,
    route_text,
    sourced,
    thought_text,
)
from .db import load_database
from .list_answers import about_of, among_text, ask_among, rows_named, winners
from .there import resolve_there
from .result_texts import asked_fields, field_text, plan_only, rebooked_text, when_said, which_text
from .side import caveat_text, hostel_names, side_text
from .slot_bridge import changes_by_amount, grows_party, moved_constraints
from .turn_facts import length_note
from .trip_dates import has_check_in, keep_stay_end, shifted
from .understanding import DOMAINS, Constraint, Parsed, find_entities
from .place_names import city_named
from .why import explain_why
from .why_not import answer_why_not, asks_why_not

__all__ = ["OfflineTurn"]

# "把它加回第二天" / "put it back": what was taken out of the plan, added again
_AGAIN = re.compile(r"加回|放回|重新加|\b(?:put|bring|add) (?:it|that|them|\w+) back\b", re.IGNORECASE)


class OfflineTurn(StepWriter):
    """The offline answer to one parsed message (``TravelAgent._run`` hands it the memories it retrieved)."""

    def own_constraints(self, p: Parsed, text: str, known, res) -> None:
        """This message's constraints as they stand after it (a budget moved by an amount, a stay's kept end), each
        with this turn and node: what either mode's calls credit to this message. Run once per message."""
        p.constraints += moved_constraints(self.weaver, text, res.node.id if res.node else None)
        party = known.latest("people", ("any",))
        grown = grows_party(text) if not any(c.slot == "people" for c in p.constraints) else 0
        if grown and party is not None and isinstance(party.value, (int, float)):
            # "我们又多了两个人": the party in force grown (the agent's noted party counts, not only the records')
            p.constraints.append(Constraint("people", int(party.value) + grown, "any"))
        keep_stay_end(p, known)
        before = known.latest("dates", ("any",)) if p.shift else None
        if p.shift and before is not None and isinstance(before.value, dict):
            moved = shifted(before.value, p.shift)  # "行程推迟一天": the dates in force, moved (a booking follows)
            if moved:
                p.constraints.append(Constraint("dates", moved, "any"))
        for c in p.constraints:
            c.turn, c.node_id = self._turn, res.node.id if res.node else ""

    def _offline(self, p: Parsed, text: str, lang: str, items: list[MemoryItem], known, memory_ids, res):
        p.asked_avoid = [t for t in p.asked_avoid if t not in known.avoid()[0]]  # "我吃素" said before: theirs already
        p.caveat = None if p.caveat == "asked_diet" and not p.asked_avoid else p.caveat
        completes_pick(p, self.awaited())  # "6月1号入住3晚" right after "几号入住？": the pick is booked
        if p.intent == "book" and not has_check_in(known):
            known = self._with_noted_dates(known)
        shown = self.last_shown(lists_only=bool(p.ordinal))  # an ordinal counts in a list, not in a look-up
        removed = self.plan_items("retracted") if p.intent == "book" and _AGAIN.search(text) else []
        if removed and not any(e[1] in DOMAINS for e in p.entities):
            # "put it back on day 2": the item taken out of the plan last, not the first of the latest list
            p.domain, shown = removed[-1].get("kind"), {str(removed[-1].get("kind")): [str(removed[-1]["name"])]}
        order = self.shown_in_order(p.domain) if p.in_shown_order and p.domain else []
        if order:  # "the first hotel you showed me": counted over every list, oldest first
            shown = {**shown, str(p.domain): [n for n, _ in order]}
        listed = shown.get(p.domain or "") or []
        if p.intent == "search" and p.field_q and listed:  # "门票多少钱？" right after a list: of one, that one;
            p.intent = "info" if len(listed) == 1 else "which"  # of several, which one is asked back
        ask_among(p, self.last_shown(lists_only=True))  # "其中哪家最便宜？": answered from the rows shown
        known = resolve_there(p, known, self.item_talked_about_last(), self.plan_items())  # the item talked about
        tp = plan_turn(p, known, self.plan_items(), shown, self.previous_search(p.domain))
        tp.missing = ["which"] if p.intent == "which" else tp.missing
        yield self.thought(
            thought_text(
                lang,
                tp.intent,
                tp.domain,
                [c for c in tp.used if c.node_id not in {res.node.id if res.node else None}],
                tp.calls,
                tp.missing,
            ),
            {
                "intent": tp.intent,
                "domain": tp.domain,
                "mode": "offline",
                "constraints": [
                    {"slot": c.slot, "value": c.value, "scope": c.scope, "turn": c.turn, "node_id": c.node_id}
                    for c in tp.used
                ],
                **_restating([c for c in tp.used if c.node_id not in {res.node.id if res.node else None}], lang),
            },
        )
        # a search that continues an earlier one ("another one") depends on it (its offers set ``exclude``), and the
        # constraints that set both reach it through that one: each is linked once, not once per search
        set_by = list(dict.fromkeys(c.node_id for c in tp.used if c.node_id))
        because = [i for i in set_by if i not in tp.carried] + ([tp.follows] if tp.follows else [])
        if tp.remove and tp.remove.get("node_id"):
            # the user's own decision, audited as a human edit: the booking memory is retracted (its dependents
            # flagged) and leaves the plan, which is read from the active bookings in memory
            self.weaver.curation.set_status(
                tp.remove["node_id"], "retracted", f"removed from the plan in chat: {text[:80]}", message_id=self._mid
            )
        relaxed = False
        for call in tp.calls:
            yield from self.tool_events(call.tool, call.arguments, lang, because, set_by=set_by)
            for alt in call.fallbacks:  # nothing near a remembered place: widen step by step
                out = self._outputs[-1]
                if out.count or out.error:
                    break
                relaxed = True
                # each step is a place of its own: a ring a search it continues had widened to is not kept
                args = {k: v for k, v in call.arguments.items() if k not in ("near", "around")}
                if alt.value:
                    args["near"] = alt.value
                if alt.slot == AROUND:
                    args["around"] = True
                first = self._result_ids[-1] if self._result_ids else None
                yield from self.tool_events(call.tool, args, lang, because, widens=first, set_by=set_by)
        self._about = about_of(tp.calls[0].arguments.get("names") or []) if p.intent == "side" and tp.calls else None
        rebooked = yield from self._rebook(p, known, lang)
        self._chain = []
        text = self._compose(p, tp, lang, items, relaxed)
        if asks_own_experience(p.text):  # "你去过吗？": answered plainly first, then what the turn did
            text = _own_experience(p, text, lang, bool(self._outputs), self._said_before())
        if rebooked:  # "改成6月9号入住" after a booking: the plan follows, and the reply says what changed
            head = text if tp.calls else ack_text(lang, p.constraints)
            text = "\n\n".join(
                [head]
                + [rebooked_text(out, lang) + "\n" + rebook_text(old, out.ok, lang, fmt_money) for old, out in rebooked]
            ) + ("\n" + plan_only(lang) if any(out.ok for _, out in rebooked) else "")
        latest = self.last_shown(lists_only=True).get(p.domain or "") or []
        at = (p.ordinal or 1) - 1
        if order and tp.target and (at >= len(latest) or latest[at] != tp.target):
            # not the item the latest list has at that place: said which one was counted, and from when
            turn = dict(order).get(str(tp.target))
            text += (
                f"\n\n（按推荐的先后顺序算，第{p.ordinal}个是第{turn}轮列出的{display_name(str(tp.target), lang)}。）"
                if lang == "zh"
                else f"\n\n(Counting everything I showed you in order, number {p.ordinal} is "
                f"{display_name(str(tp.target), lang)}, listed at turn {turn}.)"
            )
        if note := length_note(p, known, lang):  # the dates kept, a length that disagrees asked back
            text += "\n\n" + note
        flagged = self.flagged_by_this_message(lang)
        if flagged:  # one line per fact this message changed, however many memories used its old value
            text += "\n\n" + flagged
        # a why-answer also cites the chain it walked in the graph
        ids = memory_ids + [i for i in self._chain if i not in memory_ids]
        noted = [{"slot": c.slot, "value": c.value, "scope": c.scope} for c in p.constraints] if not p.city else []
        yield self.reply(
            text, ids, {"constraints_used": [c.node_id for c in tp.used if c.node_id], "chain": self._chain}, noted
        )

    def _said_before(self) -> str:
        """The turn before this one as memory holds it: the user's message, else (a short one the weaver did not
        keep) the reply that answered it ("记下了：你住在上海。"); what a bare "你去过吗？" asks about."""
        said: dict[str, str] = {}
        for nid in reversed(self.weaver.node_ids):
            n = self.weaver.nodes[nid]
            if n.turn >= self._turn or n.kind not in ("user_input", "agent_response"):
                continue
            if said and n.turn < said["turn"]:
                break
            said.setdefault("turn", n.turn)
            said.setdefault(n.kind, n.content)
        return said.get("user_input") or said.get("agent_response") or ""

    def flagged_by_this_message(self, lang: str) -> str:
        """The facts this message superseded whose dependents were flagged for review, one line per fact."""
        lines = []
        for g in self.weaver.curation.flag_groups() if self._user_node else []:
            if g.by != self._user_node or g.source not in self.weaver.nodes:
                continue
            nodes = self.weaver.nodes
            if not any(t in nodes and nodes[t].kind == "tool_result" for t in g.targets):
                continue  # nothing was looked up with the old value (a place it could not place): no news to the user
            old = self.weaver.nodes[g.source].content
            old = old if len(old) <= 40 else old[:39] + "…"
            n = len(g.targets)
            lines.append(
                f"（这条更新了“{old}”：之前按旧值得出的{n}条记忆已标为待复查。）"
                if lang == "zh"
                else f"(This updates \u201c{old}\u201d: {n} {'memory' if n == 1 else 'memories'} that used the old value "
                f"{'is' if n == 1 else 'are'} flagged for review.)"
            )
        return "\n".join(lines)

    def _rebook(self, p: Parsed, known, lang: str):
        """Bookings made under dates or a party size this message changes, made again (the same tools, so the
        budget is checked again); each new booking supersedes the old one in memory (an audited edit)."""
        if p.intent in ("remove", "history", "city", "why") or not p.constraints:
            return []
        budget = Known(known.constraints + p.constraints).latest("budget", ("any",))
        done = []
        total = float(budget.value) if budget is not None and isinstance(budget.value, (int, float)) else None
        for old, tool, args in rebookings(p.constraints, self.plan_items(), total):
            yield from self.tool_events(tool, args, lang, [self._user_node] if self._user_node else [])
            out = self._outputs.pop()  # said apart from this turn's own results
            new = self._result_ids[-1] if self._result_ids else None
            if out.ok and out.plan_item and new and old.get("node_id"):
                why = f"the plan follows the changed trip: {p.text[:80]}"
                self.weaver.curation.set_edge(old["node_id"], new, "supersedes", why, message_id=self._mid)
                self.weaver.curation.set_status(old["node_id"], "superseded", why, by=new, message_id=self._mid)
            done.append((old, out))
        return done

    def _compose(self, p: Parsed, tp, lang: str, items: list[MemoryItem], relaxed: bool) -> str:
        if p.intent == "city":
            what = {
                "hotel": ("酒店", "hotels"),
                "restaurant": ("餐厅", "restaurants"),
                "attraction": ("景点", "attractions"),
            }.get(p.domain or "", ("信息", "anything"))
            return honest_text("city", lang, city=p.city, what=what[0], what_en=what[1])
        if p.intent == "why" and asks_why_not(p.text):  # "为什么没推荐烤鸭店？": what left it out, not the last result
            answered = answer_why_not(p, self.previous_search, self.tools, lang)
            if answered:
                self._chain = answered[1]
                self._restates = [self.weaver.nodes[i].content for i in self._chain if i in self.weaver.nodes]
                return answered[0]
        if p.intent == "why":
            text, chain = explain_why(self.weaver, p, items, self._turn, lang)
            self._chain = chain  # the answer quotes each memory of the chain
            self._restates = [self.weaver.nodes[i].content for i in chain if i in self.weaver.nodes]
            return text or honest_text("why_none", lang)
        if p.intent == "history":
            keys = asked_keys(p.text)
            readings = agent_readings(self.weaver, keys)
            text, self._chain = history_text(self.weaver.constraints(), keys, lang, readings) if keys else ("", [])
            if PLAN_ASKED.search(p.text):  # "…订的是哪家酒店？": the plan is what was decided too
                said, ids = _plan_said(self.plan_items(), p.text, lang)
                text, self._chain = (text + "\n" + said).strip(), self._chain + ids
            return text
        if tp.missing and tp.missing[0] == "beyond":  # "the second one" of a list of one
            lists = self.last_shown(lists_only=True)
            names = lists.get(p.domain or "") or next(iter(lists.values()), [])
            said = ("、" if lang == "zh" else ", ").join(display_name(n, lang) for n in names)
            return honest_text("beyond", lang, n=len(names), names=said, ordinal=p.ordinal)
        if tp.missing and tp.missing[0] == "which":  # "门票多少钱？" after a list of several
            db = load_database()
            names = self.last_shown(lists_only=True).get(p.domain or "") or []
            return which_text([db.by_name[n] for n in names if n in db.by_name], p.text, p.domain or "", lang)
        if p.intent == "among":
            rows = rows_named(self.last_shown(lists_only=True).get(p.domain or "") or [])
            self._about = about_of([r["名称"] for r in winners(rows, str(p.side), p.domain or "")])
            return among_text(rows, str(p.side), p.domain or "", lang)
        if tp.missing and tp.missing[0] == "pick":  # "那就这家吧" after a list of several
            return honest_text("pick", lang, names=self.last_shown().get(tp.domain or "") or [])
        if tp.missing and tp.missing[0] == "unplaced":
            return honest_text("unplaced", lang, place=p.unplaced)
        if tp.missing and tp.missing[0] == "already":
            return honest_text("already", lang, name=display_name(str(tp.target), lang), day=p.day)
        if tp.missing and tp.missing[0] == "dates" and tp.target:  # "那就这家吧": the pick said back, dates asked
            name = display_name(str(tp.target), lang)
            self._awaiting = awaiting(str(tp.target), str(tp.domain or "hotel"))
            return (f"好的，就选{name}。" if lang == "zh" else f"OK, {name} it is. ") + honest_text("dates", lang)
        if tp.missing:
            return honest_text(tp.missing[0], lang)
        if tp.remove:
            name = display_name(str(tp.remove.get("name", "")), lang)
            return f"已从行程中移除：{name}。" if lang == "zh" else f"Removed from your plan: {name}."
        if p.intent == "side" and self._outputs and not self._outputs[-1].error:
            return side_text(self._outputs[-1].facts, lang)
        if p.intent == "has" and self._outputs and self._outputs[-1].rows:
            return has_text(self._outputs[-1].rows[0], p.asks_has, lang)
        if p.intent == "metro" and len(self._outputs) > 1:  # from one place to another
            said = caveat_text(p.caveat, lang, "") + "\n" if p.caveat in _SAID_FIRST else ""  # "打车多少钱？"
            return said + route_text(self._outputs, lang)
        fields = asked_fields(p.text) if p.intent == "info" and len(self._outputs) == 1 else []
        if fields and self._outputs[0].rows and not self._outputs[0].error:  # "故宫评分多少？": that field, not the row
            return field_text(self._outputs[0].rows[0], fields, p.domain or "", lang)
        if self._outputs:
            used = [c for c in tp.used if c.turn != self._turn]
            shown = self._outputs[-1:] if relaxed else self._outputs
            if relaxed:
                near = shown[0].arguments.get("near")
                alts = [a for call in tp.calls for a in call.fallbacks]
                used = [c for c in used if c.slot != "place"] + [c for c in alts if c.value == near and c.turn]
            first = self._outputs[0].arguments.get("near") if relaxed else None
            self._restates = _restating(used, lang).get("restates", [])
            text = _note_once(
                "\n\n".join(results_text(o, lang, used if i == 0 else [], first) for i, o in enumerate(shown))
            )
            if tp.cheaper_than:
                cheap = fmt_money(tp.cheaper_than)
                text = (
                    (
                        f"（比之前推荐里最便宜的{cheap}更便宜。）"
                        if lang == "zh"
                        else f"(Cheaper than {cheap}, the cheapest so far.)"
                    )
                    + "\n"
                    + text
                )
            found = any(o.count for o in shown)
            diet = constraint_phrase(Constraint("avoid", p.asked_avoid, "restaurant"), lang) if p.asked_avoid else ""
            if p.caveat == "no_family_tag":  # what was searched instead of the tag the data lacks
                diet = _DOMAIN_WORDS.get(p.domain or "", ("", ""))[lang != "zh"]
            if p.caveat == "no_hostel_type":  # said first (it answers the question), the hostels by name named
                diet = ("、" if lang == "zh" else ", ").join(display_name(n, lang) for n in hostel_names())
            if p.caveat in _SAID_FIRST:  # "any hostels?" / "走不了太多路": what the data lacks answers first
                text = caveat_text(p.caveat, lang, diet) + "\n" + text
            text += (
                "\n\n" + caveat_text(p.caveat, lang, diet)
                if p.caveat not in (None, *_SAID_FIRST)
                and (found or p.caveat in ("paid_parking", "asked_diet", "no_family_tag"))
                else ""
            )
            asked = shown[-1].arguments.get("cuisine") if shown else None
            text = (cuisine_note(asked, int(found), lang) + "\n" + text) if asked else text
            # "make the hotel limit 900, and find a restaurant": what the search did not use is still said back
            aside = [c for c in p.constraints if c.scope not in (p.domain, "any") and c.slot != "place"]
            return (ack_text(lang, aside) + "\n\n" + text) if aside else text
        if not p.constraints and changes_by_amount(p.text):  # "预算再加两千" with no budget on record to move
            return honest_text("no_base", lang)
        if not any(c.slot == "people" for c in p.constraints) and grows_party(p.text):  # no party on record to grow
            return honest_text("no_party", lang)
        if p.intent == "decline":  # "晚饭不用找了": nothing searched, said so (and what else it stated, noted)
            said = honest_text("declined", lang, domain=p.domain or ("restaurant" if p.meal else None))
            return said + ("\n\n" + ack_text(lang, p.constraints, p.lifted) if p.constraints or p.lifted else "")
        if p.more and not p.domain and not p.constraints:  # "cheaper?" / "再来一个" before anything was suggested
            return honest_text("nothing_shown", lang)
        if p.intent == "greeting" or (not p.constraints and is_filler(p.text)):  # "哈哈，太好了": a courtesy back
            return honest_text("greeting", lang, text=p.text)
        home = dict(frames_of(p.text)).get("home") if not (p.constraints or p.lifted) else None
        if home:  # "我住在上海。你去过吗？": where the user lives, noted; the trip stays Beijing's
            return home_text(home, lang)
        # the acknowledgement restates what the message said (without turns)
        self._restates = _restating([Constraint(c.slot, c.value, c.scope) for c in p.constraints], lang).get(
            "restates", []
        )
        return ack_text(lang, p.constraints, p.lifted)


_SAID_FIRST = ("no_hostel_type", "no_walking_data", "no_taxi_data")
_DOMAIN_WORDS = {"hotel": ("酒店", "hotels"), "restaurant": ("餐厅", "restaurants"), "attraction": ("景点", "sights")}


def _plan_said(items: list[dict], text: str, lang: str) -> tuple[str, list[str]]:
    """The plan's items of the kinds ``text`` names (all when it names none), and their nodes."""
    zh = lang == "zh"
    kinds = {d for d, n in domain_hits(text).items() if n}
    chosen = [i for i in items if not kinds or i.get("kind") in kinds]
    if not chosen:
        return ("行程里还没有订这类地方。" if zh else "Nothing of that kind is in your plan yet."), []
    parts = []
    for i in chosen:
        name = display_name(str(i.get("name", "")), lang)
        if i.get("kind") == "hotel" and i.get("nights"):
            name += (
                f"（{date_said(i.get('check_in'), lang)}入住{i['nights']}晚）"
                if zh
                else f" ({i['nights']} nights from {date_said(i.get('check_in'), lang)})"
            )
        elif when := when_said(i, lang):
            name += f"（{when}）" if zh else f" ({when})"
        parts.append(name)
    head = "行程里订的是：" if zh else "In your plan: "
    return head + ("、" if zh else ", ").join(parts) + ("。" if zh else "."), [str(i["node_id"]) for i in chosen]


def _own_experience(p: Parsed, text: str, lang: str, looked_up: bool, earlier: str) -> str:
    """The reply to a message that asks whether the assistant has been somewhere: it has not (said first, naming
    the place asked about: a database place, a home or another city, Beijing, in this message or else in the one
    before it), then the turn's own answer, or, when the message asked nothing else, what it can do."""
    home = dict(frames_of(p.text)).get("home")
    done = asks_own_experience(p.text) or "been"
    place = _place_asked(p.text, lang)
    if place is None and not p.dishes and earlier:  # "我住在上海" then "你去过吗？": Shanghai
        place = _place_asked(earlier, lang)
    if place is None and p.dishes and lang == "zh":  # "你吃过烤鸭吗？"
        place = p.dishes[0]
    rest = text if looked_up or p.constraints or p.city or home else ack_text(lang, [])
    return own_experience_text(lang, place, done) + "\n" + rest


def _place_asked(text: str, lang: str) -> str | None:
    """The place a message names, as a reply names it: a database place, else a home or another city, else Beijing."""
    entities = find_entities(text)
    if entities:
        return display_name(entities[0][0], lang)
    city = dict(frames_of(text)).get("home") or city_named(text)
    if city:
        return str(city) if lang == "zh" else CITY_EN.get(str(city), str(city))
    return ("北京" if lang == "zh" else "Beijing") if re.search(r"北京|beijing", text, re.I) else None


def _restating(used: list, lang: str) -> dict:
    """Meta naming the recap of ``used`` a step's text repeats (the support of a guessed link ignores it)."""
    return {"restates": [sourced(used, lang)]} if used else {}


def _note_once(text: str) -> str:
    r"""A note in brackets said after each of several results ("（这里只记录行程…）") is said once, at the end.

    >>> _note_once("A\n(note)\n\nB\n(note)")
    'A\n\nB\n(note)'
    """
    lines = text.split("\n")
    notes = {ln for ln in lines if ln[:1] in "(（" and ln[-1:] in ")）" and lines.count(ln) > 1}
    last = {ln: max(i for i, x in enumerate(lines) if x == ln) for ln in notes}
    kept = [ln for i, ln in enumerate(lines) if ln not in notes or last[ln] == i]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip("\n")
