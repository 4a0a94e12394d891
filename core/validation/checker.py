"""Engineering checks of a model: the gear modelling rules and connection checks.

Each finding names the item and says what to change. The rules are those of the gear documentation's User Memo
(core.validation.pair_rules) plus checks of how bodies are connected, of mass properties against the shapes,
of the settings and of the compliant meshes. The checks that need the assembled equations (locked gear loops,
the mass matrix's conditioning) are the engine's (core.dynamics.checks).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.gearing.compound import double_hold
from core.gearing.gear_bodies import has_own_axis, polar_inertia
from core.gearing.mesh_model import mesh_in_model
from core.geometry.tooth_checks import tooth_warnings
from core.model.body_shapes import source_reach
from core.model.entities import (
    GROUND,
    STEP_IS_FIRST_ONLY,
    BearingSpringDamper,
    CompliantMesh,
    GearPair,
    GearSource,
    MeshFileSource,
    SpeedMotor,
    SpringDamper,
    Torque,
    TorsionalSpringDamper,
    option_users,
)
from core.model.interference import overlapping_bodies
from core.model.model import Model, cached
from core.ranges import hertz
from core.validation.loops import closing_joints, closing_pairs
from core.validation.pair_rules import PairRules
from core.wording import counted

SEVERITIES = ("error", "warning", "info")
MASS_RANGE = (1e-4, 1e5)  # kg: a 0.1 g pin to a 100 t ring gear
GYRATION_RANGE = (2e-4, 5.0)  # m
# Radius of gyration against the largest distance from the centre of mass to the shape: a solid's smallest is
# above 1e-3 of it unless it is a needle a thousand times longer than thick; no mass inside the shape gives more
# than the distance itself (5 % allowed for a coarse display mesh).
SMALL_GYRATION, LARGE_GYRATION = 1e-3, 1.05


@dataclass(frozen=True)
class Finding:
    """One result of `validate`: severity, the item it is about, and what to change."""

    severity: str
    item: str
    message: str
    fix: str = ""  # a one-click fix where it is unique: a key of core.gearing.fixes.FIXES, applied to `item`

    def __str__(self) -> str:
        return f"{self.severity}: {self.item}: {self.message}"


def mass_remark(mass: float, largest_moment: float, visual=None) -> str | None:
    """Why a mass [kg] and largest principal moment [kg m^2] are implausible for a gear-train part, or None.

    For a mesh imported in metres that is far too big (or in mm and far too
    small) the remark says what it would weigh in the other unit.
    """
    if not (mass > 0 and largest_moment > 0):
        return None
    k = math.sqrt(largest_moment / mass)  # radius of gyration [m]
    big = mass > MASS_RANGE[1] or k > GYRATION_RANGE[1]
    small = mass < MASS_RANGE[0] or k < GYRATION_RANGE[0]
    if not (big or small):
        return None
    text = (f"{mass:.4g} kg with a radius of gyration of {k * 1e3:.4g} mm is far outside what a gear-train part "
            f"weighs ({MASS_RANGE[0]:g} to {MASS_RANGE[1]:g} kg, {GYRATION_RANGE[0] * 1e3:g} to "
            f"{GYRATION_RANGE[1] * 1e3:g} mm)")
    if isinstance(visual, MeshFileSource) and (visual.unit == "m") == big:
        other, scale = ("mm", 1e-3) if big else ("m", 1e3)
        text += (f"; the file is read in {visual.unit}: read in {other} the part would weigh {mass * scale**3:.4g} kg "
                 f"with {k * scale * 1e3:.4g} mm: import it with unit {other}")
    return text


class _Checker(PairRules):
    """The checks of one model; with `errors_only` the checks that can find nothing but warnings and notes are
    skipped, and the others' warnings and notes dropped (what a run needs: it refuses errors)."""

    def __init__(self, model: Model, errors_only: bool = False):
        self.m = model
        self.errors_only = errors_only
        self.out: list[Finding] = []

    def add(self, severity: str, item: str, message: str, fix: str = "") -> None:
        finding = Finding(severity, item, message, fix)
        # a joint of two pairs (a planet's) is checked by each: said once
        if (severity == "error" or not self.errors_only) and finding not in self.out:
            self.out.append(finding)

    def check_connections(self) -> None:
        links: dict[frozenset, list[str]] = {}
        for j in self.m.joints.values():
            links.setdefault(frozenset((j.body_i, j.body_j)), []).append(j.name)
        for bodies, names in links.items():
            if len(names) > 1:
                self.add("warning", names[1], f"joints {', '.join(repr(n) for n in names)} all connect "
                         f"{' and '.join(sorted(bodies))}: the extra ones are redundant; remove them")
        bearings = {frozenset((f.body_i, f.body_j)) for f in self.m.forces.values()
                    if isinstance(f, BearingSpringDamper)}
        for j in self.m.joints.values():
            if getattr(j, "on_bearing", False) and frozenset((j.body_i, j.body_j)) not in bearings:
                self.add("error", j.name, f"on_bearing: no Bearing Spring-Damper joins {j.body_i} and {j.body_j}, so "
                         f"nothing holds {j.body_j}: add one (Loads > Bearing Spring-Damper), or clear on_bearing")
        for f in self.m.forces.values():
            joints = links.get(frozenset((f.body_i, f.body_j)), []) if isinstance(f, BearingSpringDamper) else []
            rigid = [n for n in joints if not getattr(self.m.joints[n], "on_bearing", False)]
            if rigid:  # a rigid joint holds the shaft where the bearing's springs would
                self.add("warning", f.name, f"runs beside joint {rigid[0]!r} between the same bodies ({f.body_i} "
                         f"and {f.body_j}): the joint holds {f.body_j} rigidly, so the bearing's springs carry no "
                         f"load; to let the bearing carry {f.body_j}, mark the joint on_bearing ('Carried by a "
                         f"bearing': it keeps its axis for the gear pairs, torques and motors on it) and make its gear "
                         f"pairs compliant (Compliant Mesh, ISO 6336 stiffness): the fix does both",
                         fix="carry_on_bearing")
        seen_pairs: dict[frozenset, str] = {}
        for p in self.m.gear_pairs.values():
            key = frozenset((p.joint1, p.joint2))
            if key in seen_pairs:
                self.add("error", p.name, f"duplicates gear pair {seen_pairs[key]!r} on the same joints; remove one")
            seen_pairs[key] = p.name
        meshes: dict[str, str] = {}
        for f in self.m.forces.values():
            if isinstance(f, CompliantMesh):
                if f.pair in meshes:
                    self.add("error", f.name, f"gear pair {f.pair!r} already has compliant mesh {meshes[f.pair]!r}")
                meshes[f.pair] = f.name
        graph: dict[str, set[str]] = {b: set() for b in self.m.bodies}
        graph[GROUND] = set()
        for j in self.m.joints.values():
            graph[j.body_i].add(j.body_j)
            graph[j.body_j].add(j.body_i)
        for f in self.m.forces.values():
            if isinstance(f, (BearingSpringDamper, SpringDamper)):
                graph[f.body_i].add(f.body_j)
                graph[f.body_j].add(f.body_i)
        reach, stack = {GROUND}, [GROUND]
        while stack:
            for nxt in graph[stack.pop()] - reach:
                reach.add(nxt)
                stack.append(nxt)
        for b in self.m.bodies:
            if not graph[b]:
                own = has_own_axis(self.m.bodies[b])  # a gear, a cylinder, a part with an axis of symmetry
                self.add("warning", b, "is not connected to anything and will fly freely: add a joint",
                         fix="own_axis_joint" if own else "")
            elif b not in reach:
                self.add("warning", b, "is not connected to the ground through joints or bearings; it floats with its neighbours")

    def check_joint_loops(self) -> None:
        """Loops of joints (two joints between the same bodies are said above): the bodies on a loop are held more
        times than they need, and rigid joints leave how they share the load undetermined."""
        for joint, path in closing_joints(self.m):
            if len(path) > 1:
                loop = [joint] + [j for _, j in path]
                weld = next((j for j in loop if double_hold(self.m, j)), "")  # a shaft on two joints: one fix
                item, others = weld or joint, ", ".join(repr(j) for j in loop if j != (weld or joint))
                self.add("warning", item, f"closes a loop of joints with {others}: the bodies on it are held more "
                         "times than they need, and rigid joints leave their bearing loads undetermined (the joint "
                         "and Cartesian formulations share them differently). Hold a compound shaft by one revolute "
                         "joint and weld its other gears to it (a pair names the welded gear that meshes: 'Gear 1 "
                         "teeth on' in the Gear Pair dialog, gear1/gear2 in the file), or carry the shaft on bearing "
                         "spring-dampers", fix="hold_once" if weld else "")

    def check_gear_loops(self) -> None:
        """Closed loops of gear pairs: redundant rows when the ratios close (a planetary set). Whether they close is
        the assembled equations' question (core.dynamics.checks.locked_loops: an error there)."""
        loops = len(closing_pairs(self.m))
        if loops:
            self.add("info", "gear_pairs", f"the gear pairs close {counted(loops, 'loop')}: "
                     f"{counted(loops, 'constraint')} {'is' if loops == 1 else 'are'} redundant when the teeth agree "
                     "(as in a planetary set); the solver shares the load by minimum-norm multipliers")

    def check_teeth(self) -> None:
        """Generated gears whose teeth the rack undercuts or thins to a point (core.geometry.tooth_checks)."""
        for body in self.m.bodies.values():
            if isinstance(body.visual, GearSource):
                for text in tooth_warnings(body.visual.spec):
                    self.add("warning", body.name, text)

    def check_inertia_vs_shape(self) -> None:
        """Inertia implausibly small (or large) for a body's mass and the size of its shape."""
        for body in self.m.bodies.values():
            reach = cached(body, "reach", _reach_from_com)
            if not reach or body.mass <= 0:
                continue
            eig = cached(body, "principal_moments", lambda b: np.linalg.eigvalsh(np.asarray(b.inertia, float)))
            k_min, k_max = (math.sqrt(max(e, 0.0) / body.mass) for e in (eig[0], eig[-1]))
            if k_min < SMALL_GYRATION * reach:
                self.add("error", body.name, f"inertia is implausibly small for its mass and size: the smallest "
                         f"principal moment {eig[0]:.3g} kg m^2 gives {body.mass:.4g} kg a radius of gyration of "
                         f"{k_min * 1e3:.3g} mm, while its shape reaches {reach * 1e3:.4g} mm from the centre of mass "
                         f"(a solid of that size has at least {SMALL_GYRATION * reach * 1e3:.3g} mm): recompute the "
                         "mass properties from the shape")
            elif k_max > LARGE_GYRATION * reach:
                self.add("warning", body.name, f"inertia is larger than any mass inside its shape can give: the "
                         f"largest principal moment {eig[-1]:.3g} kg m^2 gives {body.mass:.4g} kg a radius of gyration "
                         f"of {k_max * 1e3:.4g} mm, beyond the {reach * 1e3:.4g} mm the shape reaches from the centre "
                         "of mass (intended for a flywheel not drawn? else recompute the mass properties)")

    def check_settings(self) -> None:
        """Options stored for another integrator are reported, not silently ignored."""
        st = self.m.settings
        unused = st.unused_options()
        if unused:
            users = {name: " or ".join(option_users(name)) for name in unused}
            self.add("info", "settings", "; ".join(f"{u} is set but only {users[u]} uses it (the integrator is "
                                                   f"{st.integrator})" for u in unused))

    def check_meshes(self) -> None:
        """Compliant meshes: fields not used, a face width for ISO stiffness, and a step that resolves the mesh
        (each kind of step warning said once, naming every mesh it holds for and the step they all need). Whether
        RK4 is stable at the step is a question of the whole system's fastest mode, which the assembled equations
        answer (core.dynamics.checks.step_findings)."""
        st = self.m.settings
        coarse, damped = [], []  # (mesh, frequency [Hz]) for each kind of step warning
        for mesh in self.m.forces.values():
            if not isinstance(mesh, CompliantMesh) or mesh.pair not in self.m.gear_pairs:
                continue
            pair = self.m.gear_pairs[mesh.pair]
            for field, why in mesh.unused_fields():
                self.add("info", f"{mesh.name}.{field}", f"is set but not used: {why}")
            if mesh.stiffness == "iso6336" and pair.face_width <= 0:
                self.add("error", f"{mesh.name}.stiffness", f"ISO 6336 stiffness needs the face width of pair "
                         f"{pair.name!r} (it is 0): set pair {pair.name}.face_width, or give k_mean with stiffness = given")
                continue
            if polar_inertia(self.m, pair.joint1) <= 0 or polar_inertia(self.m, pair.joint2) <= 0:
                continue
            f_n = mesh_in_model(self.m, mesh)[1]
            f_mesh = pair.z1 * self.expected_speed(pair) / (2 * math.pi)
            if f_mesh > 0 and st.step > 1.0 / (50.0 * f_mesh) and st.integrator not in STEP_IS_FIRST_ONLY:
                coarse.append((mesh.name, f_mesh))
            if f_n > 0 and st.integrator == "generalized_alpha" and st.rho_inf < 1.0 and st.step * f_n > 1.0 / 20:
                damped.append((mesh.name, f_n))
        if coarse:
            which, f = _named(coarse, "mesh period")
            self.add("warning", "settings.step", f"{st.step:.3g} s is coarser than 1/50 of {which} ("
                     f"{'the shortest ' if len(coarse) > 1 else ''}{1 / f:.3g} s at {hertz(f)}): the mesh response is "
                     f"not resolved; use a step of at most {1 / (50 * f):.3g} s")
        if damped:
            which, f = _named(damped, "mesh mode")
            self.add("warning", "settings.rho_inf", f"generalised-alpha with rho_inf {st.rho_inf:g} damps {which} "
                     f"({'up to ' if len(damped) > 1 else ''}{hertz(f)}, {1 / (st.step * f):.3g} steps per period): "
                     "set rho_inf to 1, or a step under 1/20 of that period")

    def expected_speed(self, pair: GearPair) -> float:
        """The largest speed [rad/s] of gear 1 relative to the carrier expected in the run: initial or motor-driven."""
        j1 = self.m.joints[pair.joint1]
        a = j1.unit_axis()
        w = lambda name: np.asarray(self.m.bodies[name].angular_velocity, float) if name in self.m.bodies else np.zeros(3)  # noqa: E731
        speed = abs(float(a @ (w(j1.body_j) - w(j1.body_i))))
        times = np.linspace(0.0, self.m.settings.t_end, 201)
        for f in self.m.forces.values():
            if isinstance(f, SpeedMotor) and f.joint == pair.joint1:
                speed = max(speed, float(np.abs([f.law(t) for t in times]).max()))
        return speed

    def check_interference(self) -> None:
        for a, b in overlapping_bodies(self.m):
            self.add("warning", a, f"overlaps {b!r} at the initial positions: move one of them (gears that mesh are "
                     "coupled by a gear pair between their joints, parts of one shaft by a fixed joint)")

    def check_mass_properties(self) -> None:
        """Mass and size far outside what a gear-train part has: most often a mesh imported in the wrong unit."""
        for body in self.m.bodies.values():
            eig = cached(body, "principal_moments", lambda b: np.linalg.eigvalsh(np.asarray(b.inertia, float)))
            text = mass_remark(body.mass, float(eig.max()), body.visual)
            if text:
                self.add("warning", body.name, text)

    def run(self) -> list[Finding]:
        structural = self.m.structural_problems()
        if structural:
            return [Finding("error", path, msg) for path, msg in structural]
        if not self.errors_only:  # these find warnings and notes only
            self.check_settings()
            self.check_teeth()
            self.check_mass_properties()
            self.check_interference()
        for pair in self.m.gear_pairs.values():
            self.check_pair(pair)
        self.check_connections()
        self.check_inertia_vs_shape()
        self.check_meshes()
        if not self.errors_only:
            self.check_gear_loops()
            self.check_joint_loops()
            self.check_loads()
        return self.out

    def check_loads(self) -> None:
        """A model that nothing moves: no torque or motor whose law is not zero, no gravity, no body that starts
        moving, no spring-damper (a spring's preload may move it)."""
        m = self.m
        if not m.bodies:
            return
        driven = any(isinstance(f, (Torque, SpeedMotor)) and not f.law.is_zero() for f in m.forces.values())
        springs = any(isinstance(f, (SpringDamper, TorsionalSpringDamper, BearingSpringDamper))
                      for f in m.forces.values())
        moving = any(any(b.velocity) or any(b.angular_velocity) for b in m.bodies.values())
        if not (driven or springs or moving or any(m.settings.gravity)):
            self.add("warning", "forces", "nothing loads or drives the model (no torque or motor with a law that is "
                     "not zero, no gravity, every body at rest at the start): a run will show nothing moving. Add a "
                     "Torque or a Speed Motor (Loads menu)")


def _named(found: list[tuple[str, float]], noun: str) -> tuple[str, float]:
    """Words naming the meshes of `found` ((name, frequency) pairs) with `noun` ("the mesh mode of 'm'", "the mesh
    modes of 'a', 'b' and 'c'"), and their highest frequency [Hz]."""
    names = [repr(name) for name, _ in found]
    top = max(f for _, f in found)
    if len(names) == 1:
        return f"the {noun} of {names[0]}", top
    return f"the {noun}s of {', '.join(names[:-1])} and {names[-1]}", top


def _reach_from_com(body) -> float | None:
    """Largest distance [m] from the body's centre of mass to its shape, or None when it has no readable shape."""
    if body.visual is None:
        return None
    try:
        return source_reach(body.visual, body.com)
    except Exception:  # an imported file that cannot be read now is reported by the import checks
        return None


def validate(model: Model, errors_only: bool = False, settings=None) -> list[Finding]:
    """All findings for `model`, errors first; with `errors_only` the errors alone, found without the checks
    that find nothing else (for a run, which refuses errors and leaves warnings to the model's checks).
    `settings` (SimulationSettings): check the model as it will run with these in place of its own (a step given
    on the command line or by a study is checked as the model's own step would be)."""
    if settings is not None:
        model = model.copy()
        model.settings = settings
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(_Checker(model, errors_only).run(), key=lambda f: order[f.severity])
