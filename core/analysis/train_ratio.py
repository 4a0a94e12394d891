"""How fast one joint of a model's gear train turns per rad/s of another: the ratio a torque is referred through.

A torque T on a joint that turns at r times the input joint's speed does the work of r T at the input (its
power is T w = r T w_in): that is the torque referred to the input, and its sign says whether it turns the
train with the drive or against it. On an external pair the gears turn apart (r < 0), so a load that brakes the
driven gear is positive there when the drive on the pinion is positive.

With gear pairs that lose power, the drive's torque in steady running is not that sum: a speed motor's is taken
from the engine itself (`steady_torque`), which holds each pair's losses in one place.

The ratio comes from the rows every run is held by (core.dynamics): the motion they leave free, with each
compliant mesh taken as its rigid pair (a mesh's deflection is not the train's ratio), each support held still
where it deflects (a bearing's or a spring's deflection is not either: the elements' `support_rows`), a speed
motor whose law is 0 at every time holding its joint (a planetary's held ring), and the other speed motors
left out (they drive the train; they do not change its ratios). A joint's speed is read off by the row of a
speed motor put on it, the one definition of a joint's relative speed. The same free motions, weighed by the
formulation's mass matrix, give the inertia the train puts on a joint (`train_inertia`: what a torsional spring
there turns).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
import scipy.linalg

from core.dynamics.formulations import assemble
from core.dynamics.formulations.system import RANK_TOLERANCE
from core.dynamics.program.linker import CompileError, loaded
from core.dynamics.run import prepare
from core.errors import ModelError
from core.model.entities import BearingSpringDamper, CompliantMesh, RevoluteJoint, SpeedMotor, TimeLaw, Torque
from core.model.model import Model
from core.wording import listed

#: instants over the run at which a law's mean is taken
SAMPLES = 201


def _samples(law: TimeLaw, t_end: float) -> np.ndarray:
    return np.array([law(t) for t in np.linspace(0.0, t_end, SAMPLES)])


def law_mean(law: TimeLaw, t_end: float) -> float:
    """The mean of `law` over the run, 0 to t_end [s] (SAMPLES instants, evenly spaced)."""
    return float(_samples(law, t_end).mean())


def law_sense(law: TimeLaw, t_end: float) -> int:
    """The sign of `law`'s mean over the run: +1, -1, or 0 where it has none (a sine about 0)."""
    values = _samples(law, t_end)
    mean = float(values.mean())
    return 0 if abs(mean) <= 1e-9 * float(np.abs(values).max(initial=0.0)) else (1 if mean > 0 else -1)


def drive(model: Model, besides: Torque | None = None) -> SpeedMotor | Torque | None:
    """What drives the model's train: the first speed motor whose law is not 0 at every time, else the first
    such torque; None when there is none. `besides`: a torque to pass over, with every load on its joint (the
    one being edited)."""
    others = [f for f in model.forces.values() if isinstance(f, (SpeedMotor, Torque)) and not f.law.is_zero()
              and (besides is None or (f.name != besides.name and f.joint != besides.joint))]
    return next((f for f in others if isinstance(f, SpeedMotor)), next(iter(others), None))


def speed_ratio(model: Model, joint: str, reference: str) -> float | None:
    """The relative speed of revolute joint `joint` (body j against body i, about its axis) per rad/s of revolute
    joint `reference`, as the model's gear train ties them: in every motion its rows leave free, `joint` turns at
    that multiple of `reference`'s speed. None where the train does not tie them (a planetary with two members
    free), where the reference cannot turn, for a joint that is not a revolute joint of the model, and on a
    model with structural errors.

    A planetary set with its ring held: the carrier turns at z_s / (z_s + z_r) of the sun's speed.
    """
    return speed_ratios(model, [joint], reference)[joint]


def speed_ratios(model: Model, joints, reference: str) -> dict[str, float | None]:
    """`speed_ratio` of each of `joints` to `reference`, from one assembly."""
    out = dict.fromkeys(joints)
    if not isinstance(model.joints.get(reference), RevoluteJoint):
        return out
    revolute = [j for j in out if isinstance(model.joints.get(j), RevoluteJoint)]
    found = free_motions(model, (*revolute, reference))
    if found is None:
        return out
    # each joint's speed in each free motion: a joint is tied to the reference where its speeds are one multiple
    # of the reference's in every one of them (a flywheel on a joint of its own adds a motion that leaves the
    # train's ratios as they are)
    _, free, rows, _ = found
    speeds = {on: row @ free for on, row in rows.items()}
    base = speeds[reference]
    size = float(base @ base)
    if size <= (RANK_TOLERANCE * float(np.linalg.norm(rows[reference]))) ** 2:
        return out  # the reference cannot turn
    for j in revolute:
        ratio = float(speeds[j] @ base) / size
        if np.linalg.norm(speeds[j] - ratio * base) <= RANK_TOLERANCE * (np.linalg.norm(speeds[j]) + math.sqrt(size)):
            out[j] = ratio if abs(ratio) > RANK_TOLERANCE else 0.0  # a held joint: round-off is no ratio
    return out


def free_motions(model: Model, joints, formulation: str | None = None):
    """The motions the model's train leaves free, as the module's doc says (each compliant mesh its rigid pair,
    each support held where it deflects, a speed motor at 0 holding its joint, the other speed motors left out):
    (system, free, rows, held) with `free` an orthonormal basis of them (velocities x motions) in the system of
    `formulation` (default the model's), `rows` the row that reads each of the revolute `joints`' relative speed
    [rad/s] from the velocities (row @ free: its speed in each motion) and `held` the names of the supports held.
    None on a model with structural errors, one no formulation takes, or geometry its checks refuse."""
    if model.structural_problems():
        return None
    probed = model.copy()
    probed.forces = {name: f for name, f in model.forces.items() if not isinstance(f, CompliantMesh)
                     and not (isinstance(f, SpeedMotor) and not f.law.is_zero())}
    probes = {on: f"train ratio: {on}" for on in joints}
    for on, name in probes.items():
        probed.forces[name] = SpeedMotor(name, on, TimeLaw())
    try:
        system = assemble(probed, formulation, compiled=loaded(), constant=False)
    except ModelError:  # no formulation takes the model (the run says why)
        return None
    y0 = system.initial_state()
    ports = np.zeros((len(system.asm.port_bodies), system.velocities))
    jac, _, off, _ = system.kernel.jacobian(y0, system.velocities, ports)
    if not (np.isfinite(jac).all() and np.isfinite(ports).all()):  # geometry the checks refuse (a NaN, say)
        return None
    reads = {on: system.asm.element_of(name).row0 for on, name in probes.items()}
    supports = {e.name: e.support_rows(ports[e.port0:e.port0 + e.nports]) for e in system.elements if e.nports}
    supports = {name: r for name, r in supports.items() if len(r)}
    held = np.vstack([jac[[r for r in range(len(jac)) if not off[r] and r not in reads.values()]],
                      *supports.values()])
    free = scipy.linalg.null_space(held, rcond=RANK_TOLERANCE) if held.size else np.eye(system.velocities)
    return system, free, {on: jac[r] for on, r in reads.items()}, tuple(supports)


def train_inertia(model: Model, joint: str) -> tuple[float, tuple[str, ...]] | None:
    """The inertia [kg m^2] a torsional spring on revolute joint `joint` turns against, as the model's train puts
    it there, and the names of the supports held for it: 1 / (s^T (F^T M F)^-1 s), with F the motions the train
    leaves free (`free_motions`: its meshes rigid, its supports held), M the mass matrix of the model's
    formulation at the start and s the joint's speed in each motion. The train's inertia referred to the joint
    through its ratios, whatever else of it turns freely left free to move (a differential's other member). None
    where the joint is not a revolute joint of the model or cannot turn."""
    if not isinstance(model.joints.get(joint), RevoluteJoint):
        return None
    found = free_motions(model, (joint,))
    if found is None:
        return None
    system, free, rows, held = found
    s = rows[joint] @ free
    if float(s @ s) <= (RANK_TOLERANCE * float(np.linalg.norm(rows[joint]))) ** 2:
        return None
    mass = free.T @ system.mass_matrix(system.initial_state()) @ free
    return 1.0 / float(s @ np.linalg.solve(mass, s)), held


@dataclass(frozen=True)
class Referral:
    """The model's torques referred through its train to its drive's joint, lossless, and the drive's torque in
    steady running with the losses.

    Attributes
    ----------
    drive : SpeedMotor or Torque
        What drives the train (`drive`).
    torques : tuple of (name, torque [N m])
        Each torque tied to the drive's joint: its mean over the run times its joint's speed ratio.
    untied : tuple of str
        The torques whose joints the train does not tie to the drive's.
    lossy : tuple of str
        The gear pairs with losses, which the referred torques leave out.
    steady : float or None
        With `lossy` pairs, a speed motor as the drive and no torque untied: the motor's torque in steady running
        with every loss [N m] (`steady_torque`); else None (without losses it is -`net`).
    """

    drive: SpeedMotor | Torque
    torques: tuple[tuple[str, float], ...]
    untied: tuple[str, ...]
    lossy: tuple[str, ...]
    steady: float | None = None

    @property
    def net(self) -> float:
        """The referred torques' sum [N m]: what turns the train at the drive's joint (with a speed motor, what
        the motor holds its speed against); 0 where they cancel to round-off."""
        net = float(sum(t for _, t in self.torques))
        return 0.0 if abs(net) <= 1e-9 * max(abs(t) for _, t in self.torques) else net  # torques that cancel


def referral(model: Model, source: SpeedMotor | Torque | None = None) -> Referral | None:
    """The model's torques referred to the joint of `source` (default: its drive, `drive`) as a `Referral`; None
    without a drive or where no torque is tied to it."""
    source = source or drive(model)
    if source is None:
        return None
    loads = [f for f in model.forces.values() if isinstance(f, Torque)]
    ratios = speed_ratios(model, [t.joint for t in loads], source.joint)
    t_end = model.settings.t_end
    torques = tuple((t.name, law_mean(t.law, t_end) * ratios[t.joint]) for t in loads if ratios[t.joint] is not None)
    if not torques:
        return None
    lossy = tuple(p.name for p in model.gear_pairs.values() if p.loss_table or p.efficiency < 1
                  or p.bearing_friction > 0)
    untied = tuple(t.name for t in loads if ratios[t.joint] is None)
    steady = steady_torque(model, source) if lossy and not untied and isinstance(source, SpeedMotor) else None
    return Referral(source, torques, untied, lossy, steady)


#: the largest angular acceleration [rad/s^2] of a body at a start that counts as steady running
STEADY = 1e-6
#: the force elements a steady run keeps: the torques and speed motors, and the bearings that carry members
KEPT = (Torque, SpeedMotor, BearingSpringDamper)


def steady_torque(model: Model, motor: SpeedMotor) -> float | None:
    """Speed motor `motor`'s torque in steady running [N m] against the model's torques through its train, with
    the gear pairs' losses, as a run computes it: the motor's torque at the consistent start of the model with
    each torque and speed motor at its law's mean over the run, its bearings, and no other force element (a
    compliant mesh is taken as its rigid pair, as in `speed_ratios`: undeflected at the start it would carry
    nothing; springs and dampers are not torques referred here). None where that start is not steady (a body's
    angular acceleration above STEADY), the model does not run (its checks say why), or the motor is at rest on
    average (its lossy pairs are held there, and what their losses hold at rest is not determined)."""
    steady = model.copy()
    t_end = model.settings.t_end
    if law_mean(motor.law, t_end) == 0.0:
        return None
    steady.forces = {name: dataclasses.replace(f, law=TimeLaw(value=law_mean(f.law, t_end)))
                     if isinstance(f, (Torque, SpeedMotor)) else f
                     for name, f in model.forces.items() if isinstance(f, KEPT)}
    step = model.settings.step
    compiled = "on" if loaded().compiled else "off"  # neither load numba nor wait for a compile (a dialog's note)
    try:
        run = prepare(steady, t_end=step, output_step=step, keep=False, compiled=compiled)
    except (ModelError, CompileError):
        return None
    y0 = run.solver.y
    if np.abs(run.system.accelerations(0.0, y0)[:, 3:]).max(initial=0.0) > STEADY:
        return None
    names = [(c.item, c.quantity) for c in run.results.channels]
    return float(run.take()[1][0, names.index((motor.name, "torque"))])


def balance(model: Model) -> str:
    """The model's torques referred to its drive's joint, their sum and what it does to the train, in words ('' where
    nothing drives the train or no torque is tied to the drive's joint)."""
    found = referral(model)
    if found is None:
        return ""
    source, net = found.drive, found.net
    each = ", ".join(f"{name} {value:.4g} N m" for name, value in found.torques)
    text = (f"Torques referred to {source.joint} ({source.name}'s joint) through the train, as their means over the "
            f"run: {each}; in all {net:.4g} N m")
    if found.untied:  # the sum leaves them out: no verdict on it
        text += f". Not tied to {source.joint} by the train, and not in the sum: {listed(found.untied)}"
    elif isinstance(source, SpeedMotor):
        text += f": {source.name} holds its speed against them (in steady running its torque is {steady_text(found)})"
    elif net == 0.0:
        text += ": they balance, and the train keeps its speed"
    elif net * law_sense(source.law, model.settings.t_end) > 0:
        text += f": they accelerate the train the way {source.name} turns it"
    else:
        text += f": they accelerate the train against {source.name}"
    if found.lossy and found.steady is None:
        text += f". Without the losses of {listed(found.lossy)}"
    return text + "."


def steady_text(found: Referral) -> str:
    """A speed motor's torque in steady running, in words: with the losses where `found` has them, and without."""
    lossless = f"{-found.net + 0.0:.4g} N m"
    if found.steady is None:
        return lossless
    return f"{found.steady + 0.0:.4g} N m with the losses of {listed(found.lossy)}, {lossless} without them"
