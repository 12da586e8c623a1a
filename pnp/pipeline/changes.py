"""A :class:`~pnp.pipeline.versions.Diff` as people read it: lines of text for the terminal,
Markdown for a changelog or a note to playtesters, and what a reprint prints and removes."""

from __future__ import annotations

from dataclasses import dataclass

from ..design.snapshot import KINDS, PLURAL
from ..outputs.reprint import ReprintPlan
from .versions import Change, Diff


def _value(text: str) -> str:
    return f'"{text}"' if text == "" or text != text.strip() else text.replace("\n", " / ")


def field_changes(change: Change) -> list[str]:
    """``column: old → new`` for each changed field of ``change``."""
    return [f"{name}: {_value(old)} → {_value(new)}" for name, (old, new) in change.fields.items()]


def what_changed(change: Change) -> str:
    """One word or phrase for how a card changed: ``face``, ``back``, ``face and back``,
    ``copies 2 → 3`` or ``data only``."""
    sides = " and ".join(s for s, on in (("face", change.face), ("back", change.back)) if on)
    if change.copies and not sides:
        return f"copies {change.copies[0]} → {change.copies[1]}"
    if sides:
        return sides + (f", copies {change.copies[0]} → {change.copies[1]}" if change.copies else "")
    return "data only"


def _copies(n: int) -> str:
    return f"{n} cop{'y' if n == 1 else 'ies'}"


def headline(d: Diff, title: str) -> str:
    """``Tide Pools v1.3: cards 3 changed, 1 added, 1 removed; tokens 1 changed since release
    1.2``: the counts of each kind of piece with a change, in KINDS order."""
    version = f" v{d.new['version']}" if d.new.get("version") else ""
    counts = d.counts()
    if not counts:
        return f"{title}{version}: nothing changed since {d.since}"
    kinds = [f"{kind} " + ", ".join(f"{n[what]} {what}" for what in ("changed", "added", "removed") if n[what])
             for kind, n in counts.items()]
    return f"{title}{version}: {'; '.join(kinds)} since {d.since}"


def not_compared(d: Diff) -> str | None:
    """The sentence on the pieces the earlier version did not record (a release made by a pnp
    that recorded cards only), or None when every piece was compared."""
    kinds = d.unknown_kinds()
    if not kinds:
        return None
    names = [PLURAL[k] for k in kinds]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return (f"{listed} ({len(d.unknown)}) not compared: {d.since} recorded cards only; "
            f"rebuild them in full (pnp build) if they changed")


def _by_kind(d: Diff):
    """(added, removed, changed) of each kind, in KINDS order, for the kinds that have any."""
    for kind in KINDS:
        added = [k for k in d.added if d.kind(k) == kind]
        removed = [k for k in d.removed if d.kind(k) == kind]
        changed = [c for c in d.changed if c.kind == kind]
        if added or removed or changed:
            yield added, removed, changed


def text_lines(d: Diff, title: str) -> list[str]:
    """The diff as lines of plain text (the headline first), kind by kind: cards, boards,
    reference sheets, tokens, dice."""
    lines = [headline(d, title)]
    for added, removed, changed in _by_kind(d):
        for key in added:
            lines.append(f"  added    {key}  ({_copies(d.new['pieces'][key]['copies'])})")
        for key in removed:
            lines.append(f"  removed  {key}  ({_copies(d.old['pieces'][key]['copies'])})")
        for change in changed:
            lines.append(f"  changed  {change.key}  {what_changed(change)}")
            lines += [f"             {line}" for line in field_changes(change)]
    note = not_compared(d)
    if note:
        lines.append(f"  {note}")
    return lines


def markdown(d: Diff, title: str) -> str:
    """The diff as Markdown: a heading, then Added, Removed, Changed (reprinted) and Data only
    (not reprinted) lists, each kind by kind, and a note on the pieces not compared."""
    out = [f"## {headline(d, title)}", ""]
    groups = list(_by_kind(d))
    added = [k for a, _, _ in groups for k in a]
    removed = [k for _, r, _ in groups for k in r]
    changed = [c for _, _, ch in groups for c in ch]
    printed = [c for c in changed if c.printed or c.copies]
    data_only = [c for c in changed if c not in printed]
    sections = [("Added", [f"**{k}** ({_copies(d.new['pieces'][k]['copies'])})" for k in added]),
                ("Removed", [f"**{k}** ({_copies(d.old['pieces'][k]['copies'])})" for k in removed]),
                ("Changed", [f"**{c.key}** ({what_changed(c)})" + "".join(f"; {f}" for f in field_changes(c))
                             for c in printed]),
                ("Data only (nothing printed changed)",
                 [f"**{c.key}**" + "".join(f"; {f}" for f in field_changes(c)) for c in data_only])]
    for name, items in sections:
        if items:
            out += [f"### {name}", ""] + [f"- {item}" for item in items] + [""]
    note = not_compared(d)
    if note:
        out += [f"*{note[0].upper() + note[1:]}.*", ""]
    return "\n".join(out)


@dataclass
class Reprint:
    """What a reprint since an earlier version prints and what it makes obsolete: ``print``
    maps a piece's key (``deck/id``, ``boards/track``) to the copies to print (every copy of a
    piece whose face or back changed or that is new; the extra copies of a piece that has
    more); ``remove`` maps a key to the old print's copies to take out (changed and removed
    pieces, and copies no longer needed)."""

    since: str
    print: dict[str, int]
    remove: dict[str, int]
    data_only: list[str]


def reprint(d: Diff) -> Reprint:
    """The :class:`Reprint` of a diff."""
    new, old = d.new["pieces"], d.old["pieces"]
    printing = {k: new[k]["copies"] for k in d.added}
    remove = {k: old[k]["copies"] for k in d.removed}
    data_only = []
    for c in d.changed:
        was, now = old[c.key]["copies"], new[c.key]["copies"]
        if c.printed:
            printing[c.key] = now
            remove[c.key] = was
        elif now > was:
            printing[c.key] = now - was
        elif now < was:
            remove[c.key] = was - now
        else:
            data_only.append(c.key)
    order = list(new)
    return Reprint(d.since, {k: printing[k] for k in order if k in printing},
                   {k: remove[k] for k in list(old) if k in remove}, data_only)


def _label(entry: dict) -> str:
    """How the list names a piece: its ``label`` (a board's, a token's), else its title or
    name cell."""
    fields = entry.get("fields", {})
    return entry.get("label") or next((fields[k] for k in ("title", "name") if fields.get(k)), "")


def reprint_plan(d: Diff) -> ReprintPlan:
    """The :class:`~pnp.outputs.reprint.ReprintPlan` of a diff: its :func:`reprint` with each
    piece's label, title or name for the list (the old print's for the pieces to take out),
    and the note on the pieces not compared (:func:`not_compared`)."""
    r = reprint(d)
    new, old = d.new["pieces"], d.old["pieces"]
    return ReprintPlan(d.since, d.new.get("version"),
                       tuple((k, n, _label(new[k])) for k, n in r.print.items()),
                       tuple((k, n, _label(old[k])) for k, n in r.remove.items()),
                       tuple((k, _label(new[k])) for k in r.data_only), not_compared(d))
