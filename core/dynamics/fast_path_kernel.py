"""The joint fast path compiled: its rate, its projection and the stages of explicit Runge-Kutta steps (numba).

JointFastPath (core.dynamics.joint_fast_path) reduces a gear train to constant matrices, so an
evaluation is a few element laws and one matrix-vector product: some 30 floating-point operations per
coordinate. In Python each of them is an interpreter round trip and an evaluation costs 15-30 us; an RK4
step with its bookkeeping about 100 us. Here the same arithmetic runs compiled: the rate, the projection of
the speeds onto the rows, and the stages of an explicit Runge-Kutta step (RK4's three after the first,
dop853's twelve) in one call each; and (`leap`) the fixed steps between two output samples, projection
included, in one call for all of them (Integrator.leap); and (`leap_adaptive`) dopri5's and dop853's accepted
steps with their step control (`next_step` and the error ratios of core.dynamics.integrators, compiled from
their source) in one call.

Why numba: the kernel is the fast path's own arithmetic on arrays the fast path already holds, so it is
written in Python over numpy arrays and compiled with the same formulas the Python paths run
(`law_value`/`law_rate` of core.model.entities, `spring_torque` of core.dynamics.force_elements,
`mesh_state` of core.gearing.mesh_model are compiled from their Python source, not rewritten). It is a
wheel on every platform we ship, keeps compiled code in an on-disk cache (`cache=True`: a process after the
first loads it instead of compiling), and this module is imported only when a run asks for it, so neither
the CLI's nor the app's start pays for it (tests/app/test_runs.py holds that for the app). The first use in a
process costs the import and the cache's load, about 0.7 s here (compiling, on the very first use after
an install, some seconds more); `compile_decision` (core.dynamics.run) decides when a run is long enough to gain from it.

What is compiled, and what stays in Python: the output samples have their own kernel
(core.dynamics.fast_path_sample), which takes its multipliers from here (`solve`); the large trains' KKT form
(sparse LU) stays in Python, and so does each new set of flanks' matrix K, which is made in
Python on the first evaluation that meets it (the kernel returns MISSING and the flanks it needs) and kept
in the store the kernel reads. tests/core/dynamics/test_fast_path_kernel.py holds the kernel to the
general joint-coordinate path to 1e-12 on random states of every example it covers and of variants with
every kind of time law, and a compiled run to the Python one.
"""

from __future__ import annotations

import dis
import types

import numpy as np
from numba import njit

from core.dynamics.force_elements import JointTorque, TorsionalSpring, spring_torque
from core.dynamics.integrators import dop853_ratio, dopri5_ratio, next_step, reaches
from core.gearing.mesh_model import MESH_STATE, mesh_state
from core.model.entities import LAW_CODES, TimeLaw, law_rate, law_value

# a kernel's status: done, a set of flanks without its matrices (in `flanks`), or a step whose state would not
# be finite (left to the Python step, which says so)
OK, MISSING, NOT_FINITE = 0, 1, 2
LEFT = 3  # an adaptive leap met a step it leaves to Python's step() (too many rejections, below the least step)
TORQUE, SPRING = 0, 1  # the kinds of joint elements
STATE_SIZE = len(MESH_STATE)  # an element's state as _element_forces keeps it (a mesh's has the most values)
MESH_FT, MESH_TORQUE, MESH_DISSIPATION = (MESH_STATE.index(name) for name in ("ft", "torque", "dissipation"))


_COMPILED: dict = {}  # a function of ours -> its compiled form (each compiled once per process)


def compiled_from_source(func):
    """`func` compiled, with the functions of ours it calls compiled first and put in its globals' place (the
    Python source is the one formula; numba needs every callee compiled). A module of ours it reads functions
    from (``vec3.cross``) is replaced by one holding their compiled forms."""
    if func in _COMPILED:
        return _COMPILED[func]
    callees, modules = {}, {}
    last = None  # a module of ours just loaded: the next attribute is read from it
    for ins in dis.get_instructions(func):
        if ins.opname == "LOAD_GLOBAL":
            value, last = func.__globals__.get(ins.argval), None
            if isinstance(value, types.FunctionType) and value.__module__.startswith("core."):
                callees[ins.argval] = compiled_from_source(value)
            elif isinstance(value, types.ModuleType) and value.__name__.startswith("core."):
                last = modules.setdefault(ins.argval, (value, types.ModuleType(value.__name__)))
        elif ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and last is not None:
            member = getattr(last[0], ins.argval)
            if isinstance(member, types.FunctionType):
                setattr(last[1], ins.argval, compiled_from_source(member))
            last = None
        else:
            last = None
    callees.update({name: module for name, (_, module) in modules.items()})
    source = func
    if callees:
        func = types.FunctionType(func.__code__, {**func.__globals__, **callees}, func.__name__, func.__defaults__,
                                  func.__closure__)
    _COMPILED[source] = compiled = njit(cache=True)(func)
    return compiled


_law_value = compiled_from_source(law_value)
_law_rate = compiled_from_source(law_rate)
_spring_torque = compiled_from_source(spring_torque)
_mesh_state = compiled_from_source(mesh_state)
_next_step = compiled_from_source(next_step)
_reaches = compiled_from_source(reaches)
_dopri5_ratio = compiled_from_source(dopri5_ratio)
_dop853_ratio = compiled_from_source(dop853_ratio)


# The kernel's data lives in two flat buffers, one of floats and one of ints (a numba call pays about 0.1 us
# per argument it types; a tuple of 17 arrays cost 2.5 us a call, two buffers 1 us). The int buffer starts
# with the sizes, then one (offset, rows, columns) entry per array; the names below are the entries.
NQ, ROWS, EXTRA, WORK, DISSIPATED, N_F, N_U, N_MOTORS, HEADER = range(9)
F_ARRAYS = ("spin_rows", "springs", "laws", "times", "values", "mesh_par", "profiles", "minv_c", "projector", "jq")
I_ARRAYS = ("elements", "tables", "mesh_ix", "motors", "phi_index", "gear_rows")
(SPIN_ROWS, SPRINGS, LAWS, TIMES, VALUES, MESH_PAR, PROFILES, MINV_C, PROJECTOR, JQ) = range(len(F_ARRAYS))
(ELEMENTS, TABLES, MESH_IX, MOTORS, PHI_INDEX, GEAR_ROWS) = range(len(F_ARRAYS), len(F_ARRAYS) + len(I_ARRAYS))


def pack(sizes: list[int], floats: dict, ints: dict) -> tuple[np.ndarray, np.ndarray]:
    """The two buffers from the sizes (NQ .. N_MOTORS) and the arrays named in F_ARRAYS and I_ARRAYS (1-D or 2-D)."""
    header = list(sizes) + [0] * (3 * (len(F_ARRAYS) + len(I_ARRAYS)))
    fparts, iparts, f_at, i_at = [], [], 0, len(header)
    for k, (names, source, parts) in enumerate(((F_ARRAYS, floats, fparts), (I_ARRAYS, ints, iparts))):
        for j, name in enumerate(names):
            a = np.asarray(source[name], dtype=np.int64 if k else float)
            a = a.reshape(-1, 1) if a.ndim == 1 else a
            slot = HEADER + 3 * (j + (len(F_ARRAYS) if k else 0))
            header[slot:slot + 3] = [i_at if k else f_at, a.shape[0], a.shape[1]]
            parts.append(a.ravel())
            if k:
                i_at += a.size
            else:
                f_at += a.size
    fbuf = np.concatenate(fparts) if fparts else np.zeros(0)
    ibuf = np.concatenate([np.array(header, np.int64)] + iparts)
    return np.ascontiguousarray(fbuf), np.ascontiguousarray(ibuf)


@njit(cache=True)
def _floats(fb, ib, name):
    """The float array `name` (2-D; a 1-D one has one column)."""
    at = HEADER + 3 * name
    o, r, c = ib[at], ib[at + 1], ib[at + 2]
    return np.lib.stride_tricks.as_strided(fb[o:], shape=(r, c), strides=(8 * c, 8))  # a reshape costs 45 ns


@njit(cache=True)
def _ints(ib, name):
    at = HEADER + 3 * name
    o, r, c = ib[at], ib[at + 1], ib[at + 2]
    return np.lib.stride_tricks.as_strided(ib[o:], shape=(r, c), strides=(8 * c, 8))


@njit(cache=True)
def _law(fb, ib, i, t, rate):
    """Law i of the law table (kind, value, final, t_start, t_end, amplitude, frequency, phase) at t [s]; its
    rate when `rate`."""
    p = _floats(fb, ib, LAWS)[i]
    tab = _ints(ib, TABLES)[i]
    ts = _floats(fb, ib, TIMES)[tab[0]:tab[0] + tab[1], 0]
    vs = _floats(fb, ib, VALUES)[tab[0]:tab[0] + tab[1], 0]
    if rate:
        return _law_rate(int(p[0]), p[1], p[2], p[3], p[4], p[5], p[6], p[7], ts, vs, t)
    return _law_value(int(p[0]), p[1], p[2], p[3], p[4], p[5], p[6], p[7], ts, vs, t)


@njit(cache=True)
def _find(keys, flip):
    """The store's index of the flanks `flip` (int8, 1: Ft < 0), or -1."""
    for i in range(keys.shape[0]):
        if _same(keys[i], flip):
            return i
    return -1


@njit(cache=True)
def _same(a, b):
    for r in range(a.shape[0]):
        if a[r] != b[r]:
            return False
    return True


@njit(cache=True)
def _times_vector(mat, u, out):
    for r in range(mat.shape[0]):
        s = 0.0
        for c in range(mat.shape[1]):
            s += mat[r, c] * u[c]
        out[r] = s


@njit(cache=True, inline="always")  # inlined in numba's IR: as a call, it cost an RK4 step 10-20 %
def _element_forces(t, extra, spins, u, fb, ib, states):
    """The force elements' inputs (the joint elements' torques [N m], each mesh's Ft [N] on the flank it acts
    on and its potential torque [N m]) into u[:n_f], from the extra states and the elements' spins and slips
    (`spins`, as spin_rows gives them); returns the power fed in by the joint torques and that dissipated [W].
    Where `states` has STATE_SIZE entries per element (the joint elements', then the meshes'; or none), each
    gets its state: a joint element's (torque [N m], energy [J], dissipated power [W]), a mesh's `mesh_state`
    (MESH_STATE)."""
    work = 0.0
    dissipation = 0.0
    keep = states.shape[0] > 0
    elements, springs = _ints(ib, ELEMENTS), _floats(fb, ib, SPRINGS)
    k = 0
    for e in range(elements.shape[0]):
        energy = lost = 0.0
        if elements[e, 0] == TORQUE:
            tau = _law(fb, ib, elements[e, 1], t, False)
            work += tau * spins[k]
        else:
            s = springs[elements[e, 1]]
            tau, energy, lost = _spring_torque(s[0], s[1], s[2], extra[elements[e, 2]], spins[k])
            dissipation += lost
        u[k] = tau
        if keep:
            at = e * STATE_SIZE
            states[at], states[at + 1], states[at + 2] = tau, energy, lost
        k += 1
    j = k
    mesh_ix, mesh_par, profiles = _ints(ib, MESH_IX), _floats(fb, ib, MESH_PAR), _floats(fb, ib, PROFILES)[:, 0]
    for m in range(mesh_ix.shape[0]):
        ix, p = mesh_ix[m], mesh_par[m]
        state = _mesh_state(extra[ix[0]], spins[j], extra[ix[1]], p[0], p[1], p[2], p[3] != 0.0, p[4],
                            profiles[ix[2]:ix[2] + ix[3]], p[5], p[6])
        ft = state[MESH_FT]
        if ft >= 0:
            u[k] = ft
        else:
            u[k + 1] = ft
        u[k + 2] = state[MESH_TORQUE]
        dissipation += state[MESH_DISSIPATION]
        if keep:
            for i in range(STATE_SIZE):
                states[j * STATE_SIZE + i] = state[i]
        k += 3
        j += 1
    return work, dissipation


@njit(cache=True)
def _rate(t, y, rate, lam, fb, ib, keys, store, flanks):
    """The fast path's rate of y at t into `rate` and its multipliers into `lam` (rows,; or of size 0 when not
    needed), as JointFastPath.solve gives them, and the flanks its gear rows' forces act on in `flanks` (1:
    Ft < 0); MISSING with the flanks it lacks in `flanks` when the store has not got them. store[i] holds K
    and M^-1 G^T of the flanks keys[i], one after the other."""
    nq, rows, n_f, n_u, n_m = ib[NQ], ib[ROWS], ib[N_F], ib[N_U], ib[N_MOTORS]
    size = rows + nq + ib[EXTRA]
    qd = y[nq:2 * nq]
    extra = y[2 * nq:]
    spin_rows = _floats(fb, ib, SPIN_ROWS)
    spins = np.empty(spin_rows.shape[0])
    _times_vector(spin_rows, qd, spins)
    u = np.zeros(n_u)
    work, dissipation = _element_forces(t, extra, spins, u, fb, ib, u[:0])  # no states kept (a view: no allocation)
    j = spins.shape[0] - n_m  # the motors' spins follow the elements'
    u[n_f:n_f + nq] = qd
    phi_index = _ints(ib, PHI_INDEX)[:, 0]
    for r in range(rows):
        u[n_f + nq + r] = extra[phi_index[r]]
    motors = _ints(ib, MOTORS)
    for m in range(n_m):
        u[n_f + nq + rows + m] = _law(fb, ib, motors[m, 0], t, False)
        u[n_f + nq + rows + n_m + m] = _law(fb, ib, motors[m, 0], t, True)
    gear_rows = _ints(ib, GEAR_ROWS)[:, 0]
    n_g = gear_rows.shape[0]
    # the flanks the last evaluation settled first (the Python fast path starts from the drive flanks, as
    # System._multipliers): on a train the fast path covers the flanks move no coordinate (JointFastPath
    # checks that the separating parts do no work on them), so the multipliers and the settled flanks are
    # the same from any start, and a planetary's ring rows, whose tooth forces are negative, then settle at
    # the first product instead of the second
    flip = flanks.copy()
    new = np.empty(n_g, dtype=np.int8)
    i = _find(keys, flip)
    if i < 0:
        flanks[:] = flip
        return MISSING
    out = np.empty(size)
    last = np.empty(size)
    _times_vector(np.lib.stride_tricks.as_strided(store[i], shape=(size, n_u), strides=(8 * n_u, 8)), u, out)
    settled = rows == 0
    for _ in range(4 if rows else 0):
        for g in range(n_g):
            new[g] = 1 if out[gear_rows[g]] < 0 else 0
        if _same(new, flip):
            settled = True
            break
        flip[:] = new
        i = _find(keys, flip)
        if i < 0:
            flanks[:] = flip
            return MISSING
        last[:] = out
        _times_vector(np.lib.stride_tricks.as_strided(store[i], shape=(size, n_u), strides=(8 * n_u, 8)), u, out)
    if not settled:  # no settled flanks: the last multipliers with the last flanks, as the Python path
        out[:] = last
        minv_c = _floats(fb, ib, MINV_C)
        kg = np.lib.stride_tricks.as_strided(store[i, size * n_u:], shape=(nq, rows), strides=(8 * rows, 8))
        for c in range(nq):
            s = 0.0
            for f in range(n_f):
                s += minv_c[c, f] * u[f]
            for r in range(rows):
                s += kg[c, r] * last[r]
            out[rows + c] = s
    for m in range(n_m):
        work += out[motors[m, 1]] * spins[j + m]
    rate[:nq] = qd
    rate[nq:] = out[rows:]
    rate[2 * nq + ib[WORK]] = work
    rate[2 * nq + ib[DISSIPATED]] = dissipation
    if lam.shape[0] == rows:
        lam[:] = out[:rows]
    flanks[:] = flip
    return OK


@njit(cache=True)
def _project(t, y, out, fb, ib):
    """y with the coordinate rates projected onto the rows at t, as JointFastPath.consistent_rates."""
    nq, rows = ib[NQ], ib[ROWS]
    out[:] = y
    if rows == 0:
        return
    residual = np.empty(rows)
    _times_vector(_floats(fb, ib, JQ), y[nq:2 * nq], residual)
    motors = _ints(ib, MOTORS)
    for m in range(motors.shape[0]):
        residual[motors[m, 1]] -= _law(fb, ib, motors[m, 0], t, False)
    projector = _floats(fb, ib, PROJECTOR)
    for c in range(nq):
        s = 0.0
        for r in range(rows):
            s += projector[c, r] * residual[r]
        out[nq + c] -= s


@njit(cache=True)
def _stages(t, y, h, a, c, k, first, stop, fb, ib, keys, store, flanks):
    """Stages first .. stop - 1 of an explicit Runge-Kutta tableau (a, c) from (t, y) with step h, into the
    rows of k (the earlier rows given): k_i = f(t + c_i h, y + h sum_j a_ij k_j). MISSING as _rate."""
    n = y.shape[0]
    z = np.empty(n)
    unwanted = np.empty(0)  # the multipliers
    for i in range(first, stop):
        for m in range(n):
            s = 0.0
            for j in range(i):
                s += a[i, j] * k[j, m]
            z[m] = y[m] + h * s
        if _rate(t + c[i] * h, z, k[i], unwanted, fb, ib, keys, store, flanks) != OK:
            return MISSING
    return OK


@njit(cache=True)
def _step(t, y, h, a, c, b, errors, k, first, stop, rtol, atol, d, norms, fb, ib, keys, store, flanks):
    """Stages first .. stop - 1 (as _stages), then the step's increment d = h sum_j b_j k_j and, per row E of
    `errors`, sum_m ((h sum_j E_j k_jm) / (atol + rtol |d_m|))^2 into `norms`. MISSING as _rate."""
    if _stages(t, y, h, a, c, k, first, stop, fb, ib, keys, store, flanks) != OK:
        return MISSING
    increment(h, b, errors, k, rtol, atol, d, norms)
    return OK


@njit(cache=True)
def increment(h, b, errors, k, rtol, atol, d, norms):
    """An explicit Runge-Kutta step's increment from its stages k (rows): d = h sum_j b_j k_j, and per row E of
    `errors` the squared norm sum_m ((h sum_j E_j k_jm) / (atol + rtol |d_m|))^2 into `norms` (both kernels'
    steps, as Integrator._explicit_step in Python)."""
    n = k.shape[1]
    for m in range(n):
        s = 0.0
        for j in range(b.shape[0]):
            s += b[j] * k[j, m]
        d[m] = h * s
    for e in range(errors.shape[0]):
        total = 0.0
        for m in range(n):
            s = 0.0
            for j in range(errors.shape[1]):
                s += errors[e, j] * k[j, m]
            r = h * s / (atol + rtol * abs(d[m]))
            total += r * r
        norms[e] = total


@njit(cache=True)
def _commit(t, h, y, d, z, y_old, fb, ib):
    """A step's end as Integrator.step takes it on a vector space with the fast path's projection: y_old <- y,
    y <- project(t + h, y + d) (z: work space); False, with nothing changed, when y + d would not be finite."""
    total = 0.0
    for m in range(y.shape[0]):
        z[m] = y[m] + d[m]
        total += z[m]
    if not np.isfinite(total):
        return False
    y_old[:] = y
    _project(t + h, z, y, fb, ib)
    return True


@njit(cache=True)
def _leap(t, y, h, steps, a, c, b, k, first, y_old, fb, ib, keys, store, flanks):
    """Up to `steps` steps of the explicit tableau (a, b, c) with step h from (t, y), each as Integrator.step
    takes it on a vector space with the fast path's projection: y <- project(t + h, y + d). y is updated in
    place, y_old is the state before the last step and k its stages (k[0] given for the first step when
    `first` is 1). Returns (status, steps taken, t, t before the last step); a status other than OK stops
    before the step it met."""
    n = y.shape[0]
    d, z = np.empty(n), np.empty(n)
    norms, errors = np.empty(0), np.empty((0, b.shape[0]))
    t_old = t
    for i in range(steps):
        if _step(t, y, h, a, c, b, errors, k, first if i == 0 else 0, a.shape[0], 0.0, 1.0, d, norms, fb, ib,
                 keys, store, flanks) != OK:
            return MISSING, i, t, t_old
        if not _commit(t, h, y, d, z, y_old, fb, ib):
            return NOT_FINITE, i, t, t_old
        t_old = t
        t = t + h
    return OK, steps, t, t_old


@njit(cache=True)
def _leap_adaptive(t, y, h, t_stop, steps, a, c, b, errors, k, stop, first, method, order, rtol, atol, max_step,
                   h_min, max_rejections, y_old, d_last, k_last, fb, ib, keys, store, flanks):
    """Up to `steps` steps of an adaptive explicit method (tableau a, b, c, error rows `errors`, stages 0 .. stop
    - 1; `method` 0 dopri5, 1 dop853, whose error ratio it is; `order` its controller's) from (t, y) with the
    next step size h, each as DormandPrince.step takes it with the fast path's projection: attempts of
    min(h, max_step), shrunk by `next_step` until one is accepted, then y <- project(t + h, y + d) and h the
    controller's next. It stops before a step that would reach or pass t_stop, and before one that would
    take more than max_rejections retries or fall below h_min (LEFT: Python's step() takes it and says why).
    y is updated in place; y_old is the state before the last step, d_last and k_last its increment and
    stages. Returns (status, steps taken, t, next h, t before the last step, the last step's size, the
    evaluations and the rejections of the steps taken); a status other than OK stops at the start of the step
    it met."""
    n = y.shape[0]
    z, d = np.empty(n), np.empty(n)
    norms = np.empty(errors.shape[0])
    t_old, h_last = t, 0.0
    taken, evaluations, failed = 0, 0, 0
    while taken < steps:
        hh = min(h, max_step)
        if _reaches(hh, t_stop - t):  # it reaches t_stop (as Integrator._step_to sees it) or passes it
            return OK, taken, t, h, t_old, h_last, evaluations, failed
        given, tries, spent = first, 0, 0
        while True:
            if _step(t, y, hh, a, c, b, errors, k, given, stop, rtol, atol, d, norms, fb, ib, keys, store,
                     flanks) != OK:
                return MISSING, taken, t, h, t_old, h_last, evaluations, failed
            spent += stop - given
            given = 1  # a retry reuses the first stage
            ratio = _dopri5_ratio(hh, norms, n) if method == 0 else _dop853_ratio(hh, norms, n)
            if not np.isfinite(ratio):
                return NOT_FINITE, taken, t, h, t_old, h_last, evaluations, failed
            accepted, h_next = _next_step(hh, ratio, order)
            if accepted:
                break
            tries += 1
            hh = h_next
            if hh < h_min or tries >= max_rejections:
                return LEFT, taken, t, h, t_old, h_last, evaluations, failed
        if not _commit(t, hh, y, d, z, y_old, fb, ib):
            return NOT_FINITE, taken, t, h, t_old, h_last, evaluations, failed
        d_last[:] = d
        k_last[:] = k
        t_old, h_last = t, hh
        t = t + hh
        h = h_next
        taken += 1
        evaluations += spent
        failed += tries
        first = 0
    return OK, taken, t, h, t_old, h_last, evaluations, failed


def _laws_table(laws: list[TimeLaw]):
    """The law table the kernel reads: (n, 8) parameters, (n, 2) table offsets and lengths, the tables' columns."""
    rows, tables, times, values = [], [], [], []
    for law in laws:
        rows.append([LAW_CODES[law.kind], law.value, law.final, law.t_start, law.t_end, law.amplitude,
                     law.frequency, law.phase])
        tables.append([len(times), len(law.table)])
        times += law.columns[0].tolist()
        values += law.columns[1].tolist()
    return (np.array(rows, float).reshape(-1, 8), np.array(tables, np.int64).reshape(-1, 2),
            np.array(times, float), np.array(values, float))


class CompiledFastPath:
    """A JointFastPath's rate, projection and Runge-Kutta stages, compiled. `fast` must not be a KKT (large
    train) one."""

    def __init__(self, fast):
        if fast.kkt:
            raise ValueError("the compiled kernel takes the dense fast path only (not a large train's KKT form)")
        self.fast = fast
        sy = fast.system
        laws, elements, springs = [], [], []
        for fe in fast.joint_elements:
            if type(fe) is JointTorque:
                elements.append([TORQUE, len(laws), -1])
                laws.append(fe.law)
            elif type(fe) is TorsionalSpring:
                elements.append([SPRING, len(springs), fe.ia])
                springs.append([fe.k, fe.c, fe.angle0])
            else:  # JointFastPath takes no other joint elements
                raise ValueError(f"no compiled form of {type(fe).__name__}")
        mesh_ix, mesh_par, profiles = [], [], []
        for fe in fast.meshes:
            m = fe.mesh
            mesh_ix.append([fe.gear.error_index, fe.ia, len(profiles), len(m.profile)])
            profiles += [float(v) for v in m.profile]
            mesh_par.append([fe.cos, float(fe.gear.pair.z1), m.k_mean, float(m.cosine is not None), m.cosine or 0.0,
                             m.damping, m.backlash])
        motors = []
        for row, c in zip(fast.motor_rows, fast.motors):
            motors.append([len(laws), row, c.error_index])
            laws.append(c.law)
        law_rows, tables, times, values = _laws_table(laws)
        nq, rows = fast.nq, fast.rows
        floats = {"spin_rows": np.reshape(fast.spin_rows, (-1, nq)), "springs": np.reshape(springs, (-1, 3)),
                  "laws": law_rows, "times": times, "values": values, "mesh_par": np.reshape(mesh_par, (-1, 7)),
                  "profiles": profiles, "minv_c": np.reshape(fast.minv_c, (nq, -1)),
                  "projector": fast._projector if rows else np.zeros((nq, 0)), "jq": np.reshape(fast.jq, (-1, nq))}
        ints = {"elements": np.reshape(elements, (-1, 3)), "tables": tables, "mesh_ix": np.reshape(mesh_ix, (-1, 4)),
                "motors": np.reshape(motors, (-1, 3)), "phi_index": fast.phi_index, "gear_rows": fast.gear_rows}
        self.fb, self.ib = pack([nq, rows, sy.extra, fast.work_index, fast.dissipated_index, fast.n_f, fast.n_u,
                                 len(motors)], floats, ints)
        self.n = 2 * nq + sy.extra
        self._unwanted = np.empty(0)  # the multipliers, where only the rate is asked for
        n_g = len(fast.gear_rows)
        self.flanks = np.zeros(n_g, np.int8)  # of the last evaluation (1: Ft < 0), or those the store lacks
        self._keys = np.zeros((0, n_g), np.int8)
        self._store = np.zeros((0, (rows + nq + sy.extra) * fast.n_u + nq * rows))  # per flanks: K, M^-1 G^T
        self._add(np.zeros(n_g, np.int8))  # the drive flanks, the first every evaluation tries
        # numba loads (or compiles) each kernel at its first call: here, so that a run's steps go at full speed
        y0 = sy.initial_state()
        k = np.zeros((2, self.n))
        k[0] = self.rate(0.0, y0)
        self.stages(0.0, y0, 1e-9, np.ones((2, 2)), np.ones(2), k, 1, 2)
        self.step(0.0, y0, 1e-9, np.ones((2, 2)), np.ones(2), np.ones(2), np.ones((1, 2)), k, 1, 2)
        self.leap(0.0, y0, 1e-9, 1, np.zeros((2, 2)), np.zeros(2), np.ones(2), k, 0)
        self.leap_adaptive(0.0, y0, 1e-9, 0.0, 1, np.zeros((2, 2)), np.zeros(2), np.ones(2), np.ones((1, 2)), k, 2, 0,
                           0, 5, 1e-6, 1e-9, np.inf, 1e-14, 1)
        self.project(0.0, y0)

    def _add(self, flip: np.ndarray) -> None:
        """The matrices of the flanks `flip` (from the Python fast path), appended to the store."""
        k, kg = self.fast._flank_matrices(tuple(bool(v) for v in flip))
        entry = np.concatenate([k.ravel(), np.zeros(0) if kg is None else kg.ravel()])
        self._keys = np.ascontiguousarray(np.vstack([self._keys, flip[None, :]]))
        self._store = np.ascontiguousarray(np.vstack([self._store, entry[None, :]]))

    def rate(self, t: float, y: np.ndarray) -> np.ndarray:
        """The tangent rate of y at t [SI], as JointFastPath.rate."""
        out = np.empty(self.n)
        while _rate(float(t), y, out, self._unwanted, self.fb, self.ib, self._keys, self._store, self.flanks) != OK:
            self._add(self.flanks.copy())
        return out

    def solve(self, t: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple]:
        """The rate, the multipliers and the flanks their forces act on (True: Ft < 0) at (t, y), as
        JointFastPath.solve."""
        out, lam = np.empty(self.n), np.empty(self.fast.rows)
        while _rate(float(t), y, out, lam, self.fb, self.ib, self._keys, self._store, self.flanks) != OK:
            self._add(self.flanks.copy())
        return out, lam, self.flanks.astype(bool)

    def project(self, t: float, y: np.ndarray) -> np.ndarray:
        """y with the coordinate rates projected onto the rows at t [s], as JointFastPath.consistent_rates."""
        out = np.empty(self.n)
        _project(float(t), y, out, self.fb, self.ib)
        return out

    def stages(self, t: float, y: np.ndarray, h: float, a: np.ndarray, c: np.ndarray, k: np.ndarray, first: int,
               stop: int) -> None:
        """Stages first .. stop - 1 of the explicit Runge-Kutta tableau (a, c) [-] from (t, y) with step h [s]
        into the rows of k (the earlier rows given): k_i = f(t + c_i h, y + h sum_j a_ij k_j), in one call."""
        while _stages(float(t), y, float(h), a, c, k, first, stop, self.fb, self.ib, self._keys, self._store,
                      self.flanks) != OK:
            self._add(self.flanks.copy())

    def step(self, t: float, y: np.ndarray, h: float, a: np.ndarray, c: np.ndarray, b: np.ndarray,
             errors: np.ndarray, k: np.ndarray, first: int, stop: int, rtol: float = 0.0,
             atol: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """An explicit Runge-Kutta step of the tableau (a, b, c) [-] from (t, y) with step h [s] in one call:
        stages first .. stop - 1 into k (as `stages`), the increment d = h sum_j b_j k_j, and per row E of
        `errors` the squared norm sum_m ((h sum_j E_j k_jm) / (atol + rtol |d_m|))^2. Returns (d, norms)."""
        d, norms = np.empty(self.n), np.empty(errors.shape[0])
        while _step(float(t), y, float(h), a, c, b, errors, k, first, stop, float(rtol), float(atol), d, norms,
                    self.fb, self.ib, self._keys, self._store, self.flanks) != OK:
            self._add(self.flanks.copy())
        return d, norms

    def leap(self, t: float, y: np.ndarray, h: float, steps: int, a: np.ndarray, c: np.ndarray, b: np.ndarray,
             k: np.ndarray, first: int) -> tuple[int, float, np.ndarray, float, np.ndarray]:
        """Up to `steps` steps of the explicit tableau (a, b, c) [-] with step h [s] from (t, y) in one call, each
        y <- project(t + h, y + d) as Integrator.step takes it with this kernel's projection; k is the stages'
        work space, its row 0 given for the first step when `first` is 1. It stops early before a step whose
        state would not be finite. Returns (steps taken, t, y, and t and y before the last step)."""
        y, y_old = np.array(y, dtype=float), np.empty(self.n)
        t, t_old, taken = float(t), float(t), 0
        while taken < steps:
            status, done, t, last = _leap(t, y, float(h), steps - taken, a, c, b, k, first if taken == 0 else 0,
                                          y_old, self.fb, self.ib, self._keys, self._store, self.flanks)
            if done:
                t_old = last
            taken += done
            if status == MISSING:
                self._add(self.flanks.copy())
            elif status == NOT_FINITE:
                break
        return taken, t, y, t_old, y_old


    def leap_adaptive(self, t: float, y: np.ndarray, h: float, t_stop: float, steps: int, a: np.ndarray,
                      c: np.ndarray, b: np.ndarray, errors: np.ndarray, k: np.ndarray, stop: int, first: int,
                      method: int, order: int, rtol: float, atol: float, max_step: float, h_min: float,
                      max_rejections: int) -> tuple:
        """Up to `steps` accepted steps of an adaptive explicit method (dopri5: method 0, dop853: 1) from (t, y)
        with the next step size h [s], in one call, each as DormandPrince.step takes it (see `_leap_adaptive`;
        k is the stages' work space, its row 0 given when `first` is 1). It stops before a step that reaches
        t_stop, and before one Python's step() must take (too many rejections, below h_min, a state that
        would not be finite). Returns (steps taken, t, y, next h, t and y before the last step, the last
        step's size, increment and stages, evaluations, rejections)."""
        y, y_old = np.array(y, dtype=float), np.empty(self.n)
        d_last, k_last = np.empty(self.n), np.empty_like(k)
        t, h, t_old, h_last = float(t), float(h), float(t), 0.0
        taken = evaluations = failed = 0
        while taken < steps:
            status, done, t, h, last, size, spent, tries = _leap_adaptive(
                t, y, h, float(t_stop), steps - taken, a, c, b, errors, k, stop, first if taken == 0 else 0,
                method, order, float(rtol), float(atol), float(max_step), float(h_min), max_rejections, y_old,
                d_last, k_last, self.fb, self.ib, self._keys, self._store, self.flanks)
            if done:
                t_old, h_last = last, size
            taken, evaluations, failed = taken + done, evaluations + spent, failed + tries
            if status == MISSING:
                self._add(self.flanks.copy())
            else:
                break
        return taken, t, y, h, t_old, y_old, h_last, d_last, k_last, evaluations, failed


def warm_cache() -> str:
    """Compile every kernel into numba's on-disk cache (`python -m core.dynamics.fast_path_kernel`; `make venv`
    does it once): the joint fast path's and the Cartesian evaluation's (core.dynamics.cartesian_kernel), so
    that a long run's first use in a process loads them instead of compiling them."""
    import time
    from pathlib import Path

    from core.dynamics.joint_coordinates import JointCoordinateSystem
    from core.dynamics.system import System
    from core.model.files import load

    t0 = time.perf_counter()
    # any model a kernel covers compiles all of it: numba types the calls, not the branches taken
    model = load(Path(__file__).parents[2] / "resources" / "examples" / "planetary.gdyn")
    for system in (JointCoordinateSystem(model), System(model)):
        note = system.compile()
        if note is not None:
            raise RuntimeError(f"the {system.formulation} kernel did not compile: {note}")
    return f"the compiled kernels are in numba's cache ({time.perf_counter() - t0:.1f} s)"


if __name__ == "__main__":
    print(warm_cache())
