"""Events: zeros of g(t, y) located on the integrator's interpolant, as scipy's solve_ivp does; and the times a
time law jumps or bends.

An event function changes sign where something happens (a lossy gear's mesh
speed passing zero, a torque reaching what the losses hold). After each step
the driver compares the signs of g at both ends and finds the crossing on the
dense output by Brent's method, so the time is found to round-off whatever the
step size. Where a law jumps or bends (a load switched on, a motor's speed
command ramped) is known in advance: the driver ends its steps there instead
(`law_breaks`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from core.model.entities import TimeLaw


@dataclass
class Event:
    """An event function and how it is used.

    Parameters
    ----------
    fun : callable g(t, y) -> float
    direction : float
        > 0: only rising crossings (g from negative to positive) count; < 0:
        only falling ones; 0: both.
    terminal : bool
        A terminal event stops the step there: the driver integrates up to the
        event and then calls its handler (which may change the equations and
        restart the integrator).
    name : str
        Names the event in the results.
    """

    fun: Callable[[float, np.ndarray], float]
    direction: float = 0.0
    terminal: bool = False
    name: str = ""


def crossed(g_old: float, g_new: float, direction: float) -> bool:
    """Whether g went through zero between two samples in the allowed direction (touching zero counts once).

    A g that starts at exactly zero and leaves it the wrong way counts too: a mode entered at a zero of its
    event function (a gear that starts rolling from rest) that fails at once.
    """
    up = g_old < 0 <= g_new or g_old == 0 < g_new
    down = g_old > 0 >= g_new or g_old == 0 > g_new
    if direction > 0:
        return up
    if direction < 0:
        return down
    return up or down


def locate(events: list[Event], g_old: list[float], g_new: list[float], sol, t_old: float, t_new: float,
           xtol: float = 4 * np.finfo(float).eps, again=()) -> list[tuple[float, int]]:
    """(time, index) of every event that happened in [t_old, t_new], earliest first.

    `sol` is the interpolant of the step. A terminal event cuts the list after
    it: what comes later in the step is not reached. `again`: the events that fired at t_old already; one that
    fails there at once again is taken where the step first shows it (its mode cannot be decided at that instant).
    """
    found = []
    for i, ev in enumerate(events):
        if not crossed(g_old[i], g_new[i], ev.direction):
            continue
        g_a, g_b = (0.0, 0.0) if g_new[i] == 0.0 else (ev.fun(t_old, sol(t_old)), ev.fun(t_new, sol(t_new)))
        if g_new[i] == 0.0 or g_b == 0.0 or (g_a * g_b > 0 and np.sign(g_a) == np.sign(g_old[i])):
            te = t_new  # where it shows (the interpolant may not cross: a projection after the step did)
        elif g_a * g_b > 0:
            te = t_old  # the interpolant is past it all through the step
        else:
            fun = lambda t: ev.fun(t, sol(t))  # noqa: E731
            # from a zero: it may cross after leaving it the other way, or fail at once
            a, b = _back_across(fun, t_old, t_new, g_b, i in again) if g_a == 0.0 else (t_old, t_new)
            te = a if a == b else _brent(fun, a, b, xtol)
        found.append((te, i))
    found.sort()
    for k, (_, i) in enumerate(found):
        if events[i].terminal:
            return found[:k + 1]
    return found


def _brent(g, a: float, b: float, xtol: float) -> float:
    """The zero of g between a and b (of opposite signs) to round-off."""
    # at the first event, not at import: scipy.optimize loads linprog and fft with it (0.17 s of the app's start,
    # which imports this module for every model but meets an event in few)
    from scipy.optimize import brentq

    return brentq(g, a, b, xtol=xtol * max(1.0, abs(b)), rtol=4 * np.finfo(float).eps)


#: Where in a step (fractions of it) an event function that starts the step at zero is looked at for the other sign
PROBES = (1e-4, 1e-3, 1e-2, 0.1, 0.25, 0.5, 0.75)


def _back_across(g, t_old: float, t_new: float, g_new: float, again: bool) -> tuple[float, float]:
    """Where g, zero at t_old and of g_new's sign at t_new, reaches that sign: a bracket (a, b) of its crossing, or
    (t, t) when it has that sign at once: t_old, or `again` the first probe that shows it. A mode entered at a zero
    of its event function (a gear starting from rest) may hold for part of the step, g of the other sign there,
    and end within it."""
    start = None
    for f in PROBES:
        t = t_old + f * (t_new - t_old)
        value = g(t)
        if value * g_new < 0:
            start = t
        elif value * g_new > 0:
            return (start, t) if start is not None else (t, t) if again else (t_old, t_old)
    return (start, t_new) if start is not None else (t_new, t_new) if again else (t_old, t_old)


def law_breaks(model, t_end: float) -> list[tuple[float, str, str]]:
    """The times in (0, t_end) [s] where one of the model's time laws jumps (a 'step' law whose value and final
    differ) or bends (a ramp's ends, a table's rows), earliest first, each with the items whose laws jump there
    and how ('drive', 'its law steps from 0 to 100 rad/s'; '', '' where laws only bend).

    A step of an integrator across a jump errs by its size times the jump whatever its order, across a bend by
    its size squared times the change of slope, and a motor's speed that jumps or turns sharply inside a step
    breaks its constraint: the run ends a stretch of steps just before each time and starts the next at it.
    """
    found: dict[float, list[tuple[str, str]]] = {}
    for _, item in model.items():
        for law in vars(item).values():
            if not isinstance(law, TimeLaw):
                continue
            if law.kind == "step" and law.value != law.final:
                unit = getattr(item, "LAW_UNIT", "")
                found.setdefault(law.t_start, []).append((item.name, f"from {law.value:g} to {law.final:g} {unit}"))
            bends = ((law.t_start, law.t_end) if law.kind == "ramp" and law.value != law.final
                     else (row[0] for row in law.table) if law.kind == "table" else ())
            for t in bends:
                found.setdefault(t, [])
    out = []
    for t, jumps in sorted(found.items()):
        if 0.0 < t < t_end:
            how = (f"its law steps {jumps[0][1]}".rstrip() if len(jumps) == 1
                   else "their laws step: " + ", ".join(f"{name} {change}".rstrip() for name, change in jumps)
                   if jumps else "")
            out.append((t, ", ".join(name for name, _ in jumps), how))
    return out
