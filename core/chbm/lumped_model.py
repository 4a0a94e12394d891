"""Lumped gear dynamics for harmonic balance: M x'' + C x' + K x + f_c(x, tau) = f_ext.

The model is Saletti, Battiato and Zucca (Vibration 2025, 8(2), 18): a
spur-gear pair reduced to its transmission error x = theta2 r2 - theta1 r1
(Eq. 7, Eq. 15 for identical gears), with one penalty contact element per
tooth pair that can touch during a mesh period (Eq. 14). Everything here is
written for n degrees of freedom and any number of contact elements so that
larger lumped models run through the same solvers.

Time enters through the phase tau = omega t / cycles in [0, 2 pi) of the model's period, omega = 2 pi f_mesh
with f_mesh the (first) mesh's frequency: one mesh period for a pair or a planetary set (cycles = 1); for a
train whose meshes run at different frequencies, the common period that holds a whole number of every mesh's
periods (a contact element's `order` of them, `cycles` of the first mesh's).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

# Table 1 of the paper.
PAPER_INERTIA = 0.0158  # kg m^2, each gear
PAPER_BASE_RADIUS = 0.0705  # m
PAPER_DAMPING = 4038.2  # N s/m
PAPER_TEETH = 50
PAPER_CONTACT_RATIO = 1.75
PAPER_PRESSURE_ANGLE = math.radians(20.0)
PAPER_CONTACT_STIFFNESS = 2.6e8  # N/m per tooth pair
PAPER_TORQUES = (100.0, 200.0, 300.0)  # N m
GAP_OPEN = 1.0  # m: an open tooth pair never closes (the paper's step value)


@dataclass(frozen=True)
class ContactElement:
    """One tooth pair: force k max(0, -(w . x + gap(tau))) pushing the teeth apart.

    Attributes
    ----------
    direction : ndarray, shape (n,)
        w: the element's relative displacement is w . x [m]; negative closes the contact.
    stiffness : float
        k [N/m].
    closed : tuple of (start, end)
        Windows of the mesh period, as fractions in [0, 1], where the gap is 0;
        elsewhere the gap is `gap_open`. A window may wrap past 1.
    gap_open : float
        The gap outside the windows [m].
    """

    direction: np.ndarray
    stiffness: float
    closed: tuple[tuple[float, float], ...]
    gap_open: float = GAP_OPEN
    law: object = None  # a core.gearing.mesh_model.MeshModel: stiffness k(phase) instead of the constant
    phase: float = 0.0  # the law's mesh-period fraction at the train's phase 0 (meshes of a train differ)
    rolling: float = 1.0  # +1: the law's phase advances with the train's; -1: its gear turns the other way
    order: int = 1  # the law's mesh periods in one period of the model (module docstring)

    def law_fraction(self, phase_fraction):
        """The law's mesh-period fraction at the model's period fractions."""
        return (self.rolling * self.order * np.asarray(phase_fraction, float) + self.phase) % 1.0

    def stiffness_at(self, phase_fraction: np.ndarray) -> np.ndarray:
        """Stiffness [N/m] at fractions of the model's period."""
        s = np.asarray(phase_fraction, float)
        if self.law is None:
            return np.full(s.shape, self.stiffness)
        return np.asarray(self.law.stiffness(self.law_fraction(s))[0], float)

    @property
    def mean_stiffness(self) -> float:
        """The stiffness averaged over the period [N/m] (the constant where the gap is closed, for step gaps)."""
        if self.law is None:
            s = np.arange(4096) / 4096
            return float(np.mean(self.stiffness * (self.gap(s) == 0.0)))
        return float(np.mean(self.stiffness_at(np.arange(4096) / 4096)))

    @property
    def peak_stiffness(self) -> float:
        """The largest stiffness over the period [N/m]."""
        if self.law is None:
            return self.stiffness
        return float(self.stiffness_at(np.arange(4096) / 4096).max())

    def gap(self, phase_fraction: np.ndarray) -> np.ndarray:
        """Gap [m] at mesh-period fractions in [0, 1)."""
        s = np.asarray(phase_fraction) % 1.0
        shut = np.zeros(s.shape, dtype=bool)
        for a, b in self.closed:
            shut |= ((s >= a) & (s < b)) if a <= b else ((s >= a) | (s < b))
        return np.where(shut, 0.0, self.gap_open)

    def switch_fractions(self) -> list[float]:
        """Instants where the gap jumps (or, for a law, where its own periods start), as fractions of the period."""
        if self.law is not None:  # where each of the law's own periods starts
            return sorted({((k - self.rolling * self.phase) / self.order) % 1.0 for k in range(self.order)})
        return sorted({v % 1.0 for w in self.closed for v in w})


SWITCH_GRID = 1024  # gap jumps fall on multiples of 1/1024 of the mesh period


def step_gap_elements(contact_ratio: float, stiffness: float, direction, gap_open: float = GAP_OPEN):
    """Contact elements of the step-gap model for 1 < contact_ratio < 2 (paper, Fig. 5).

    Three tooth pairs can touch within one mesh period: the middle one all the
    period, the leaving one at the start and the entering one at the end, each
    for (cr - 1) / 2 of the period. So k(t) = k for (2 - cr) of the period and
    2 k for (cr - 1) of it, and each pair stays in contact for cr periods.
    The jumps are put on a grid of 1/1024 of the period (cr changes by less
    than 1e-3; 1.75 is exact) so that time samples can sit on them.
    """
    if not 1.0 < contact_ratio < 2.0:
        raise ValueError(f"contact_ratio: must be above 1 and below 2 for the step-gap model, got {contact_ratio}")
    half = round((contact_ratio - 1.0) / 2.0 * SWITCH_GRID) / SWITCH_GRID
    w = np.atleast_1d(np.asarray(direction, dtype=float))
    return (
        ContactElement(w, stiffness, ((0.0, half),), gap_open),
        ContactElement(w, stiffness, ((0.0, 1.0),), gap_open),
        ContactElement(w, stiffness, ((1.0 - half, 1.0),), gap_open),
    )


def mesh_elements(mesh, direction, coast=None, phase: float = 0.0, rolling: float = 1.0,
                  order: int = 1) -> tuple[ContactElement, ContactElement]:
    """Drive- and coast-flank elements of a MeshModel (core.gearing.mesh_model) on direction w.

    Drive flank: F = k(tau) max(0, -(w.x + j/2)); coast flank: the same on
    `coast` (default -w: a purely torsional mesh; where the gear centres move
    the coast flank's line of action is the drive flank's mirrored about the
    line of centres). With no backlash and coast = -w the two add up to the
    linear spring k(tau) w.x; with backlash each flank opens over its half of
    the gap. The mesh damping is the model's linear damping matrix (always
    acting, also across the gap). `phase`: the mesh-period fraction of the law
    at the train's phase 0; `rolling`: -1 where the law's phase runs against the train's; `order`: its mesh
    periods in the model's period.
    """
    w = np.atleast_1d(np.asarray(direction, dtype=float))
    wc = -w if coast is None else np.atleast_1d(np.asarray(coast, dtype=float))
    half = 0.5 * mesh.backlash
    kept = {"law": mesh, "phase": phase, "rolling": rolling, "order": order}
    return (ContactElement(w, mesh.k_mean, ((0.0, 1.0),), gap_open=half, **kept),
            ContactElement(wc, mesh.k_mean, ((0.0, 1.0),), gap_open=half, **kept))


@dataclass(frozen=True)
class LumpedModel:
    """M x'' + C x' + K x - sum_e w_e F_e(x, tau) = f_ext, with constant f_ext.

    Attributes
    ----------
    mass, damping, stiffness : ndarray, shape (n, n)
        [kg], [N s/m], [N/m] in the coordinates x [m].
    contacts : tuple of ContactElement
    force : ndarray, shape (n,)
        Constant external force f_ext [N] (the torque term of Eq. 7 moved to the right).
    output : ndarray, shape (n,)
        The DTE is output . x [m].
    description : str
    cycles : int
        The first mesh's periods in one period of the model (module docstring): the solvers take that mesh's
        frequency, and the model's harmonics are of its period.
    """

    mass: np.ndarray
    damping: np.ndarray
    stiffness: np.ndarray
    contacts: tuple[ContactElement, ...]
    force: np.ndarray
    output: np.ndarray
    description: str = ""
    notes: tuple[str, ...] = field(default=())
    cycles: int = 1

    @property
    def dofs(self) -> int:
        return self.mass.shape[0]

    def period(self, frequency: float) -> float:
        """The model's period [s] at the first mesh's `frequency` [Hz]: `cycles` of its mesh periods."""
        return self.cycles / frequency

    def switch_fractions(self) -> list[float]:
        return sorted({s for c in self.contacts for s in c.switch_fractions()})

    def gaps(self, fractions: np.ndarray) -> np.ndarray:
        """Gap of every element [m] at period fractions, shape (E, N)."""
        return np.array([c.gap(fractions) if c.law is None else np.full(np.shape(fractions), c.gap_open)
                         for c in self.contacts])

    def stiffnesses(self, fractions: np.ndarray) -> np.ndarray:
        """Stiffness of every element [N/m] at period fractions, shape (E, N)."""
        return np.array([c.stiffness_at(fractions) for c in self.contacts])

    @functools.cached_property
    def contact_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Directions (E, n) and stiffnesses (E,) of the contact elements."""
        return np.array([c.direction for c in self.contacts]), np.array([c.stiffness for c in self.contacts])

    @functools.cached_property
    def contact_sides(self) -> np.ndarray:
        """Each contact element's sign along the DTE (E,): +1 for one that closes on a negative DTE (a drive
        flank: its force pushes the DTE up), -1 for one that closes on a positive DTE (a coast flank). The teeth's
        force along the DTE is contact_sides @ F_e."""
        return np.sign(self.contact_arrays[0] @ self.output)

    def contact_forces(self, x: np.ndarray, gaps: np.ndarray, stiff: np.ndarray | None = None):
        """Element forces F_e [N] (E, N) and closed flags at samples x (N, n) with gaps (E, N).

        `stiff` (E, N): the elements' stiffness at those samples (default: their constants).
        """
        w, k = self.contact_arrays
        k = k[:, None] if stiff is None else stiff
        pen = -(w @ x.T + gaps)
        on = pen > 0
        return np.where(on, k * pen, 0.0), on

    def restoring(self, x: np.ndarray, gaps: np.ndarray, stiff: np.ndarray | None = None):
        """Contact force on the coordinates, -sum_e w_e F_e, (N, n), and its tangent (N, n, n)."""
        forces, active = self.contact_forces(x, gaps, stiff)
        w, k = self.contact_arrays
        k = k[:, None] if stiff is None else stiff
        return -forces.T @ w, self.contact_tangent(active * k)

    def contact_tangent(self, weights: np.ndarray) -> np.ndarray:
        """The contact stiffness sum_e weights[e, k] w_e w_e^T [N/m] at each sample k, (N, n, n), from each
        element's stiffness where it is closed (E, N) [N/m]."""
        w, _ = self.contact_arrays
        return np.einsum("ek,ea,eb->kab", weights, w, w)

    def mesh_stiffness(self, fractions: np.ndarray) -> np.ndarray:
        """Stiffness along the output when every element that can close is closed [N/m]."""
        if any(c.law is not None for c in self.contacts):  # drive and coast flank: one of them carries
            return next(c for c in self.contacts if c.law is not None).stiffness_at(fractions)
        return sum(c.stiffness * (c.gap(fractions) == 0.0) for c in self.contacts)

    def static_state(self, max_iter: int = 50) -> tuple[np.ndarray, np.ndarray]:
        """The quasi-static coordinates x [m] at each element's mean stiffness, and which elements carry.

        K x - sum_e w_e F_e(x) = f_ext with F_e = k_e max(0, -(w_e . x + gap_e)): piecewise linear, solved
        by Newton on the set of closed elements, starting with every element closed (it stops when the set
        repeats). Of a mesh's two flank elements (a law's drive and coast, stored in pairs) at least the one
        nearer to contact stays closed, so the mesh never comes loose from a quasi-static load.
        """
        w, _ = self.contact_arrays
        k = np.array([c.mean_stiffness for c in self.contacts])
        gaps = np.array([0.0 if c.law is None else c.gap_open for c in self.contacts])
        flank_pairs = [i for i in range(0, len(self.contacts) - 1, 2) if self.contacts[i].law is not None]
        on = np.ones(len(self.contacts), dtype=bool)
        seen = []
        x = np.zeros(self.dofs)
        for _ in range(max_iter):
            kk = self.stiffness + np.einsum("e,ea,eb->ab", k * on, w, w)
            # -w F = k w (w.x + g) on the closed elements, so K_eff x = f - sum k w g
            x = np.linalg.lstsq(kk, self.force - (k * on * gaps) @ w, rcond=None)[0]
            pen = -(w @ x + gaps)
            now = pen > 0
            for i in flank_pairs:
                if not (now[i] or now[i + 1]):
                    now[i + (pen[i + 1] > pen[i])] = True
            if np.array_equal(now, on) or any(np.array_equal(now, s) for s in seen):
                break
            seen.append(on)
            on = now
        return x, on

    def static_deflection(self) -> float:
        """Mean quasi-static DTE [m] of a 1-DOF model: k(t) x(t) = f_ext at every instant.

        With the step-gap contact x(t) = f_ext / k(t), so the mean is f_ext mean(1 / k(t)).
        """
        s = np.linspace(0.0, 1.0, 4096, endpoint=False)
        return float(np.mean((self.force @ self.output) / self.mesh_stiffness(s)))


def mesh_pair_model(inertia_1: float, inertia_2: float, base_radius_1: float, base_radius_2: float, torque_1: float,
                    mesh, description: str = "", notes: tuple[str, ...] = ()) -> LumpedModel:
    """The single-DOF pair of Eq. (7) with a MeshModel instead of the step-gap contact.

    x = theta2 r_b2 - theta1 r_b1 [m] (negative loads the drive flanks); the
    mesh damping is the MeshModel's, on x.
    """
    base = pair_model(inertia_1, inertia_2, base_radius_1, base_radius_2, mesh.damping, torque_1, 1.5, mesh.k_mean)
    return LumpedModel(mass=base.mass, damping=base.damping, stiffness=base.stiffness,
                       contacts=mesh_elements(mesh, [1.0]), force=base.force, output=base.output,
                       description=description, notes=notes)


def pair_model(inertia_1: float, inertia_2: float, radius_1: float, radius_2: float, damping: float,
               torque_1: float, contact_ratio: float, contact_stiffness: float, description: str = "",
               notes: tuple[str, ...] = ()) -> LumpedModel:
    """The single-DOF pair of Eq. (7): x = theta2 r2 - theta1 r1 [m].

    m = I1 I2 / (I1 r2^2 + I2 r1^2),  f_ext = -T1 (I1 r2^2 / r1 + I2 r1) / (I1 r2^2 + I2 r1^2),
    so that m x'' + C x' - F_c = f_ext; with I1 = I2 = I and r1 = r2 = r this is
    Eq. (15): I / (2 r^2) x'' + C x' - F_c + T / r = 0.
    """
    den = inertia_1 * radius_2**2 + inertia_2 * radius_1**2
    m = inertia_1 * inertia_2 / den
    f_ext = -torque_1 * (inertia_1 * radius_2**2 / radius_1 + inertia_2 * radius_1) / den
    return LumpedModel(
        mass=np.array([[m]]), damping=np.array([[damping]]), stiffness=np.zeros((1, 1)),
        contacts=step_gap_elements(contact_ratio, contact_stiffness, [1.0]),
        force=np.array([f_ext]), output=np.array([1.0]), description=description, notes=notes,
    )


def paper_model(torque: float = 100.0, contact_stiffness: float | None = None) -> LumpedModel:
    """The paper's identical-gear pair (Eq. 15, Table 1) under `torque` [N m].

    `contact_stiffness` [N/m] replaces the paper's single tooth-pair stiffness
    (the damping stays the paper's C).
    """
    k = PAPER_CONTACT_STIFFNESS if contact_stiffness is None else contact_stiffness
    note = "" if contact_stiffness is None else f", k = {k:g} N/m"
    return pair_model(PAPER_INERTIA, PAPER_INERTIA, PAPER_BASE_RADIUS, PAPER_BASE_RADIUS, PAPER_DAMPING,
                      torque, PAPER_CONTACT_RATIO, k, description=f"Saletti et al. 2025, Table 1, T = {torque:g} N m{note}")


def torsional_two_dof_model(inertia_1: float, inertia_2: float, radius_1: float, radius_2: float, damping: float,
                            torque_1: float, contact_ratio: float, contact_stiffness: float,
                            shaft_stiffness: float = 0.0, shaft_damping: float = 0.0) -> LumpedModel:
    """Two rotations (r1 theta1, r2 theta2) [m] instead of their difference: a 2-DOF lumped pair.

    With arc-length coordinates u1 = r1 theta1, u2 = r2 theta2 the masses are
    I1 / r1^2 and I2 / r2^2; the contact acts on x = u2 - u1 and the torques
    give the forces T1 / r1 on u1 and -T1 / r1 on u2 (T2 = T1 r2 / r1). The
    mesh damping acts on x. A torsional shaft (stiffness and damping on u1, in
    N/m and N s/m of arc length) holds the rigid-body mode, which the mesh
    damping does not reach.
    """
    m = np.diag([inertia_1 / radius_1**2, inertia_2 / radius_2**2])
    w = np.array([-1.0, 1.0])
    c = damping * np.outer(w, w) + shaft_damping * np.diag([1.0, 0.0])
    k = shaft_stiffness * np.diag([1.0, 0.0])
    f = np.array([torque_1 / radius_1, -torque_1 / radius_1])
    return LumpedModel(mass=m, damping=c, stiffness=k, contacts=step_gap_elements(contact_ratio, contact_stiffness, w),
                       force=f, output=w, description="2-DOF torsional pair")
