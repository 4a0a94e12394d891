"""A curiosity: the constant-torque planetary, where RK4 in joint coordinates is exact at any step.

With a constant torque the joint angles are quadratic in time, so this case flatters GearDyn, and the
Exudyn model below (one rigid body per gear, index-2 Newmark) is Exudyn's slowest way to build a gear train.
The fair comparison is bench_planetary_time_varying.py (a time-varying load, Exudyn's minimal-coordinate
model). What follows is kept for the record.

The planetary example for 1 s simulated, GearDyn against Exudyn (optional `bench` extra), side by side.

Ring held, 1 N m on the sun, from rest. Error: the sun's speed at t = 1 s against
the energy method, w_s = t / J_eq. Exudyn has the same bodies and revolute
joints; its gear meshes are relative-rotation markers joined by coordinate
constraints, and (as its solver stops on the redundant ring meshes) only
planet 1 meshes with the ring there. Its generalised-alpha (the default) stops
with Newton failures on this model at every step tried; its Newmark variant with
index-2 constraints runs, so that is what is timed. GearDyn runs the whole
example, redundant meshes included, in joint coordinates (the default for this
model) at several steps and in Cartesian coordinates at one. Goal: GearDyn at
least 5 times faster than Exudyn at equal or better error, with a phase drift
below 1e-9 m.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.dynamics.simulate import simulate  # noqa: E402
from core.geometry.rotations import quat_matrix  # noqa: E402
from core.model.files import load  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "planetary.gdyn"
T_END = 1.0
EXUDYN_TIMEOUT = 300  # s


def analytic_sun_speed(model, t: float) -> float:
    b = model.bodies
    izz = {k: b[k].inertia[2][2] for k in b}
    kc = 24 / (24 + 72)
    kp = kc - (24 / 24) * (1 - kc)
    a = 0.002 * (24 + 24) / 2
    j_eq = izz["sun"] + izz["carrier"] * kc**2 + sum(b[f"planet{k}"].mass * (a * kc) ** 2 + izz[f"planet{k}"] * kp**2
                                                     for k in (1, 2, 3))
    return t / j_eq


def exudyn_run(model, h: float, sun_torque=None, carrier_damping: float = 0.0, t_end: float = T_END):
    """Exudyn's Cartesian planetary (one rigid body per gear) for t_end s at step h: (wall time [s] of building,
    assembling and solving, sun speed [rad/s] at the end). `sun_torque`: a function of t [N m] (None: 1 N m);
    `carrier_damping` [N m s/rad]: a viscous load on the carrier (bench_planetary_time_varying.py's case)."""
    import exudyn as exu
    from exudyn.itemInterface import (
        LoadTorqueVector,
        MarkerBodiesRelativeRotationCoordinate,
        MarkerBodyRigid,
        NodeGenericData,
        ObjectConnectorCoordinate,
        ObjectConnectorCoordinateSpringDamper,
        ObjectGround,
    )
    from exudyn.utilities import RigidBodyInertia

    warnings.simplefilter("ignore", DeprecationWarning)
    t0 = time.perf_counter()
    sc = exu.SystemContainer()
    mbs = sc.AddSystem()
    bodies = {"ground": mbs.AddObject(ObjectGround())}
    nodes = {}
    for name, b in model.bodies.items():
        d = mbs.CreateRigidBody(inertia=RigidBodyInertia(mass=b.mass, inertiaTensor=np.array(b.inertia), com=np.array(b.com)),
                                referencePosition=list(b.position), referenceRotationMatrix=quat_matrix(b.orientation),
                                returnDict=True)
        bodies[name], nodes[name] = d["bodyNumber"], d["nodeNumber"]
    for j in model.joints.values():
        if j.body_j == "ring":  # the held ring: welded to the ground
            mbs.CreateGenericJoint(bodyNumbers=[bodies["ground"], bodies["ring"]], position=list(j.position),
                                   constrainedAxes=[1, 1, 1, 1, 1, 1], useGlobalFrame=True)
        else:
            mbs.CreateRevoluteJoint(bodyNumbers=[bodies[j.body_i], bodies[j.body_j]], position=list(j.position),
                                    axis=list(j.axis), useGlobalFrame=True)

    def relative(gear):
        node = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=1, initialCoordinates=[0.0]))
        return mbs.AddMarker(MarkerBodiesRelativeRotationCoordinate(bodyNumbers=[bodies["carrier"], bodies[gear]],
                                                                    nodeNumber=node, axis0=[0, 0, 1]))

    sun = relative("sun")
    for k in (1, 2, 3):  # planet angle relative to the carrier = -(z_s / z_p) times the sun's
        mbs.AddObject(ObjectConnectorCoordinate(markerNumbers=[relative(f"planet{k}"), sun], factor1=-24 / 24))
    mbs.AddObject(ObjectConnectorCoordinate(markerNumbers=[relative("planet1"), relative("ring")], factor1=72 / 24))
    torque = {} if sun_torque is None else {"loadVectorUserFunction": lambda mbs_, t, load: [0.0, 0.0, sun_torque(t)]}
    mbs.AddLoad(LoadTorqueVector(markerNumber=mbs.AddMarker(MarkerBodyRigid(bodyNumber=bodies["sun"], localPosition=[0, 0, 0])),
                                 loadVector=[0, 0, 1.0], **torque))
    if carrier_damping:  # on the carrier's rotation relative to the ground
        node = mbs.AddNode(NodeGenericData(numberOfDataCoordinates=1, initialCoordinates=[0.0]))
        turn = mbs.AddMarker(MarkerBodiesRelativeRotationCoordinate(bodyNumbers=[bodies["ground"], bodies["carrier"]],
                                                                    nodeNumber=node, axis0=[0, 0, 1]))
        fixed = mbs.AddMarker(MarkerBodiesRelativeRotationCoordinate(bodyNumbers=[bodies["ground"], bodies["ground"]],
                                                                     nodeNumber=mbs.AddNode(NodeGenericData(
                                                                         numberOfDataCoordinates=1, initialCoordinates=[0.0])),
                                                                     axis0=[0, 0, 1]))
        mbs.AddObject(ObjectConnectorCoordinateSpringDamper(markerNumbers=[fixed, turn], stiffness=0.0,
                                                            damping=carrier_damping))
    mbs.Assemble()
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = int(round(t_end / h))
    s.timeIntegration.endTime = t_end
    s.timeIntegration.verboseMode = 0
    s.timeIntegration.newton.useModifiedNewton = True
    s.timeIntegration.generalizedAlpha.useNewmark = True
    s.timeIntegration.generalizedAlpha.useIndex2Constraints = True
    s.solutionSettings.writeSolutionToFile = False
    s.displayComputationTime = False
    exu.SolveDynamic(mbs, s)
    elapsed = time.perf_counter() - t0
    return elapsed, mbs.GetNodeOutput(nodes["sun"], exu.OutputVariableType.AngularVelocity)[2]


def main() -> int:
    print("A curiosity: constant torque, where RK4 in joint coordinates is exact; the fair comparison is "
          "bench_planetary_time_varying.py")
    model = load(EXAMPLE)
    exact = analytic_sun_speed(model, T_END)
    print(f"analytic sun speed at {T_END} s: {exact:.6f} rad/s")
    rows = []
    for formulation, h in (("joint", 5e-2), ("joint", 2e-2), ("joint", 1e-2), ("joint", 1e-3), ("cartesian", 5e-4)):
        t0 = time.perf_counter()
        res = simulate(model, t_end=T_END, step=h, integrator="rk4", output_step=T_END / 10, formulation=formulation)
        elapsed = time.perf_counter() - t0
        err = abs(res["sun_joint.speed [rad/s]"][-1] / exact - 1)
        drift = max(np.abs(res[f"{p}.drift [m]"]).max() for p in model.gear_pairs)
        name = f"GearDyn rk4 {formulation}"
        rows.append((name, h, elapsed, err, drift))
        print(f"{name} h = {h:g} s: {elapsed:.2f} s wall, sun speed error {err:.2e}, drift {drift:.2e} m", flush=True)
    try:
        import exudyn  # noqa: F401
    except ImportError:
        print("exudyn not installed (pip install '.[bench]'): GearDyn only")
    else:
        for h in (1e-3, 1e-4, 2e-5):
            # in a child process with a time limit: its Newton iterations can stall for a long time
            try:
                out = subprocess.run([sys.executable, __file__, "--exudyn", str(h)], capture_output=True, text=True,
                                     timeout=EXUDYN_TIMEOUT)
            except subprocess.TimeoutExpired:
                print(f"Exudyn at h = {h:g} s: no result within {EXUDYN_TIMEOUT} s", flush=True)
                continue
            last = out.stdout.strip().splitlines()[-1:] or [""]
            if out.returncode or not last[0].startswith("{"):
                print(f"Exudyn at h = {h:g} s failed: {(out.stdout + out.stderr).strip().splitlines()[-1:]}", flush=True)
                continue
            got = json.loads(last[0])
            rows.append(("Exudyn Newmark", h, got["wall"], abs(got["w"] / exact - 1), float("nan")))
            print(f"Exudyn h = {h:g} s: {got['wall']:.1f} s wall, sun speed error {abs(got['w'] / exact - 1):.2e}", flush=True)
    print(f"{'solver':24s} {'step [s]':>9s} {'wall [s]':>9s} {'sun speed error':>16s} {'max drift [m]':>14s}")
    for name, h, elapsed, err, drift in rows:
        print(f"{name:24s} {h:9.1e} {elapsed:9.2f} {err:16.2e} {drift:14.2e}")
    ours = [r for r in rows if r[0].startswith("GearDyn")]
    theirs = [r for r in rows if r[0].startswith("Exudyn")]
    for e in theirs:
        ok = [g for g in ours if g[3] <= e[3]]
        if ok:
            best = min(ok, key=lambda g: g[2])
            print(f"vs Exudyn h = {e[1]:g} (error {e[3]:.2e}): the fastest GearDyn run at equal or better error "
                  f"({best[0]}, h = {best[1]:g}, error {best[3]:.2e}, drift {best[4]:.2e} m) is "
                  f"{e[2] / best[2]:.2f} x {'faster' if e[2] > best[2] else 'slower'} (goal: 5 x faster)")
        else:
            print(f"vs Exudyn h = {e[1]:g}: no GearDyn run here reached its error {e[3]:.2e}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--exudyn":
        wall, w = exudyn_run(load(EXAMPLE), float(sys.argv[2]))
        print(json.dumps({"wall": wall, "w": float(w)}))
        sys.exit(0)
    sys.exit(main())
