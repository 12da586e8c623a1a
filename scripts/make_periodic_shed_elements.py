"""Write card_data/periodic-shed/cards.csv: the 118 element cards and the 10 action cards.

Element facts (symbol, name, atomic number, group, period, metal, melting point, radioactivity)
come from the ``mendeleev`` package; nothing is typed in by hand. The game's own choices (the
family each element belongs to, the ferromagnetic cards the rules name, the action cards) are
defined below. The output is deterministic: the same mendeleev data gives the same bytes.

Run it from the repository root:

    python scripts/make_periodic_shed_elements.py

It reads every element through ``mendeleev.element`` (about a minute), then rewrites the CSV.
"""

from __future__ import annotations

import csv
import io
import sys
import warnings
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "card_data" / "periodic-shed" / "cards.csv"

# The game's families, keyed by periodic group. The f-block rows are taken out first (see
# family_for). Group 1 includes hydrogen: the rules define the family by group number.
GROUP_FAMILY = {
    1: "alkali",
    2: "alkaline-earth",
    3: "early-transition", 4: "early-transition", 5: "early-transition",
    6: "early-transition", 7: "early-transition",
    8: "late-transition", 9: "late-transition", 10: "late-transition",
    11: "late-transition", 12: "late-transition",
    13: "boron-group",
    14: "carbon-group",
    15: "pnictogen",
    16: "chalcogen",
    17: "halogen",
    18: "noble-gas",
}
LANTHANOIDS = range(57, 72)   # La..Lu, the IUPAC lanthanoid series
ACTINOIDS = range(89, 104)    # Ac..Lr, the IUPAC actinoid series

# mendeleev's series names that are metals.
METAL_SERIES = {"Alkali metals", "Alkaline earth metals", "Transition metals", "Poor metals",
                "Lanthanides", "Actinides"}
# Where the game decides against mendeleev's series (README.md, "Element facts decided"):
# polonium is a metal. Both of its allotropes conduct like a metal, their resistivity rising
# with temperature (N. N. Greenwood and A. Earnshaw, Chemistry of the Elements, 2nd ed., 1997,
# ch. 16), although mendeleev files it with the metalloids.
METAL_OVERRIDE = {"po": True}
# British and IUPAC spellings (IUPAC, Nomenclature of Inorganic Chemistry, Recommendations
# 2005, table I); mendeleev spells them the American way.
NAME_OVERRIDE = {"Aluminum": "Aluminium", "Cesium": "Caesium"}

# The cards the rules call ferromagnetic (taken by the batch attack).
FERROMAGNETIC = {"fe", "ni", "co", "nd", "gd", "dy", "sm", "tc"}
# Every card that can take part in the Ferromagnetism combo (Nd + Fe + B + Co or Ni).
COMBO = {"nd", "fe", "b", "co", "ni"}

HEADER = ["id", "kind", "title", "symbol", "atomic_number", "family", "group", "period",
          "metal", "melting_point_k", "radioactive", "ferromagnetic", "icons", "temperature_k",
          "rule_text", "layout", "copies"]

ACTIONS = [
    # id, kind, title, temperature, rule text
    ("fission-1", "fission", "Fission", None,
     "Play on your turn, whatever the current card is.\n"
     "Until a new element becomes the current card, Chalcogens ■ and Alkali Metals ● "
     "count as one family when matching."),
    ("fission-2", "fission", "Fission", None,
     "Play on your turn, whatever the current card is.\n"
     "Until a new element becomes the current card, Chalcogens ■ and Alkali Metals ● "
     "count as one family when matching."),
    ("fusion-1", "fusion", "Fusion", None,
     "Play on your turn, whatever the current card is.\n"
     "Until a new element becomes the current card, Chalcogens ■ and Alkaline Earth Metals ▲ "
     "count as one family when matching."),
    ("fusion-2", "fusion", "Fusion", None,
     "Play on your turn, whatever the current card is.\n"
     "Until a new element becomes the current card, Chalcogens ■ and Alkaline Earth Metals ▲ "
     "count as one family when matching."),
    ("event-horizon", "event-horizon", "Event Horizon", None,
     "Play on your turn, whatever the current card is.\n"
     "Every other card in your hand falls in and is gone. You win the game."),
]
TEMPERATURES = [300, 600, 1000, 1500, 2500]


def family_for(atomic_number: int, group_id: int | None) -> str:
    """The game family of an element, from its atomic number and periodic group."""
    if atomic_number in LANTHANOIDS:
        return "lanthanide"
    if atomic_number in ACTINOIDS:
        return "actinide"
    if group_id is None:
        raise ValueError(f"element {atomic_number} has no group and is not in the f-block")
    return GROUP_FAMILY[int(group_id)]


def temperature_text(kelvin: int) -> str:
    return ("Play on your turn, whatever the current card is.\n"
            f"Discard every metal in your hand whose melting point is {kelvin} K or lower. "
            "Metals with no known melting point stay. Then discard this card.")


def melting_point(el) -> float | None:
    """The melting point in kelvin. mendeleev gives none for an element with several allotropes
    (tin, phosphorus, sulfur, selenium); then take the highest melting point among them, the
    temperature at which the last solid form turns liquid on heating at standard pressure
    (white tin at 505.08 K, as in the CRC Handbook of Chemistry and Physics). A sublimation
    point is not a melting point: carbon, which only sublimes, keeps none."""
    if el.melting_point is not None:
        return el.melting_point
    melts = [t.melting_point for t in (el.phase_transitions or [])
             if t.melting_point is not None and not getattr(t, "is_sublimation_point", False)]
    return max(melts) if melts else None


def group_of(el) -> str:
    """The periodic group printed on the card; blank for the f-block series. The game puts La
    and Ac with the lanthanoids and actinoids (IUPAC 2005 recommendations, IR-3.5: La-Lu and
    Ac-Lr), so their cards do not print group 3, which is the Early Transition Metals' group."""
    if el.atomic_number in LANTHANOIDS or el.atomic_number in ACTINOIDS or el.group_id is None:
        return ""
    return str(int(el.group_id))


def fmt_bool(value: bool) -> str:
    return "yes" if value else "no"


def element_rows() -> list[list[str]]:
    from mendeleev import element  # imported here so --help works without the package

    rows = []
    with warnings.catch_warnings():
        # mendeleev warns for elements with several allotropes; their melting point is None.
        warnings.simplefilter("ignore")
        for z in range(1, 119):
            el = element(z)
            card_id = el.symbol.lower()
            metal = METAL_OVERRIDE.get(card_id, el.series in METAL_SERIES)
            mp = melting_point(el)
            icons = []
            if metal:
                icons.append("metal")
            if el.is_radioactive:
                icons.append("radioactive")
            if card_id in FERROMAGNETIC:
                icons.append("magnet")
            if card_id in COMBO:
                icons.append("combo")
            rows.append([
                card_id, "element", NAME_OVERRIDE.get(el.name, el.name), el.symbol, str(el.atomic_number),
                family_for(el.atomic_number, el.group_id),
                group_of(el),
                str(el.period),
                fmt_bool(metal),
                "" if mp is None else f"{round(mp, 2):.2f}",
                fmt_bool(bool(el.is_radioactive)),
                fmt_bool(card_id in FERROMAGNETIC),
                ";".join(icons), "", "", "element", "1",
            ])
    return rows


def action_rows() -> list[list[str]]:
    rows = [[cid, kind, title, "", "", "", "", "", "", "", "", "", "", "", text, "action", "1"]
            for cid, kind, title, _t, text in ACTIONS]
    for kelvin in TEMPERATURES:
        rows.append([f"temperature-{kelvin}k", "temperature", f"Temperature {kelvin} K", "", "", "",
                     "", "", "", "", "", "", "", str(kelvin), temperature_text(kelvin), "action",
                     "1"])
    return rows


def render() -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows(element_rows())
    writer.writerows(action_rows())
    return buf.getvalue()


def main(argv: list[str]) -> int:
    if "--help" in argv or "-h" in argv:
        print(__doc__)
        return 0
    text = render()
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
