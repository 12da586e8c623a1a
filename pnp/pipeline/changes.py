"""A :class:`~pnp.pipeline.versions.Diff` as people read it: lines of text for the terminal,
Markdown for a changelog or a note to playtesters, and what a reprint prints and removes."""

from __future__ import annotations

from dataclasses import dataclass

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
    """``Tide Pools v1.3: 3 cards changed, 1 added, 1 removed since release 1.2``."""
    version = f" v{d.new['version']}" if d.new.get("version") else ""
    if d.empty:
        return f"{title}{version}: no card changed since {d.since}"
    parts = [f"{len(d.changed)} changed" if d.changed else "", f"{len(d.added)} added" if d.added else "",
             f"{len(d.removed)} removed" if d.removed else ""]
    return f"{title}{version}: cards {', '.join(p for p in parts if p)} since {d.since}"


def text_lines(d: Diff, title: str) -> list[str]:
    """The diff as lines of plain text (the headline first)."""
    lines = [headline(d, title)]
    for key in d.added:
        lines.append(f"  added    {key}  ({_copies(d.new['pieces'][key]['copies'])})")
    for key in d.removed:
        lines.append(f"  removed  {key}  ({_copies(d.old['pieces'][key]['copies'])})")
    for change in d.changed:
        lines.append(f"  changed  {change.key}  {what_changed(change)}")
        lines += [f"             {line}" for line in field_changes(change)]
    return lines


def markdown(d: Diff, title: str) -> str:
    """The diff as Markdown: a heading, then Added, Removed, Changed (reprinted) and Data only
    (not reprinted) lists."""
    out = [f"## {headline(d, title)}", ""]
    printed = [c for c in d.changed if c.printed or c.copies]
    data_only = [c for c in d.changed if c not in printed]
    sections = [("Added", [f"**{k}** ({_copies(d.new['pieces'][k]['copies'])})" for k in d.added]),
                ("Removed", [f"**{k}** ({_copies(d.old['pieces'][k]['copies'])})" for k in d.removed]),
                ("Changed", [f"**{c.key}** ({what_changed(c)})" + "".join(f"; {f}" for f in field_changes(c))
                             for c in printed]),
                ("Data only (nothing printed changed)",
                 [f"**{c.key}**" + "".join(f"; {f}" for f in field_changes(c)) for c in data_only])]
    for name, items in sections:
        if items:
            out += [f"### {name}", ""] + [f"- {item}" for item in items] + [""]
    return "\n".join(out)


@dataclass
class Reprint:
    """What a reprint since an earlier version prints and what it makes obsolete: ``print``
    maps ``deck/id`` to the copies to print (every copy of a card whose face or back changed
    or that is new; the extra copies of a card that has more); ``remove`` maps ``deck/id`` to
    the old print's copies to take out (changed and removed cards, and copies no longer
    needed)."""

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
    fields = entry.get("fields", {})
    return next((fields[k] for k in ("title", "name") if fields.get(k)), "")


def reprint_plan(d: Diff) -> ReprintPlan:
    """The :class:`~pnp.outputs.reprint.ReprintPlan` of a diff: its :func:`reprint` with each
    card's title (or name) for the list, the old print's for the cards to take out."""
    r = reprint(d)
    new, old = d.new["pieces"], d.old["pieces"]
    return ReprintPlan(d.since, d.new.get("version"),
                       tuple((k, n, _label(new[k])) for k, n in r.print.items()),
                       tuple((k, n, _label(old[k])) for k, n in r.remove.items()),
                       tuple((k, _label(new[k])) for k in r.data_only))
