"""The rows and ports the elements write, and what a formulation does with them.

A constraint row or a port acts on up to three bodies (its slots): per slot a block of six numbers, force
then moment about the body's COM (world axes), which is also the row in the body's velocity (v, w). The row
tables (ROW_BODIES, PORT_BODIES) say which body each slot is (-1: none, or the ground). Here: the rates of
rows and ports (blocks . v), the loads of forces along them (blocks^T u), a gear row's blocks on the flank in
contact. Plain Python that numba compiles unchanged.
"""

from __future__ import annotations

from core.dynamics.buffers.layout import WORK_POWER



def clear_forces(forces):
    """Zero what the laws write (a law writes only its own entries)."""
    u, tgt, tgtr, _, xdot, acc = forces
    u[:] = 0.0
    tgt[:] = 0.0
    tgtr[:] = 0.0
    xdot[:] = 0.0
    acc[:] = 0.0


def block_rates(blocks, table, vel, spin, out):
    """out[r] = blocks[r] . v: the rates of rows or ports (blocks (k, 3, 6), table (k, 3) their bodies)."""
    for r in range(blocks.shape[0]):
        total = 0.0
        for s in range(3):
            b = table[r, s]
            if b >= 0:
                for a in range(3):
                    total += blocks[r, s, a] * vel[b, a] + blocks[r, s, 3 + a] * spin[b, a]
        out[r] = total


def add_block_loads(blocks, table, weights, force, torque):
    """force, torque += blocks^T weights: the loads on the bodies [N, N m] of forces `weights` along rows or ports."""
    for r in range(blocks.shape[0]):
        w = weights[r]
        if w != 0.0:
            for s in range(3):
                b = table[r, s]
                if b >= 0:
                    for a in range(3):
                        force[b, a] += w * blocks[r, s, a]
                        torque[b, a] += w * blocks[r, s, 3 + a]


def on_flanks(rgp, rgs, gear_rows, flanks, out):
    """The rows' force blocks on the flanks in contact into out: rgp, less 2 rgs for a gear row whose flank is
    negative."""
    out[:, :, :] = rgp
    for k in range(gear_rows.shape[0]):
        if flanks[k] < 0:
            r = gear_rows[k]
            out[r] -= 2.0 * rgs[r]


def baumgarte(stabilised, alpha, beta, jv, tgt, phi):
    """A row's Baumgarte terms 2 alpha (J v - s) + beta^2 phi (0 when it is not stabilised)."""
    if stabilised == 0:
        return 0.0
    return 2.0 * alpha * (jv - tgt) + beta * beta * phi


def switch_off(off, a, s, rhs):
    """The rows that do not hold now (`off`, a lossy pair's lock while it rolls) out of the multipliers'
    equations A lambda = rhs: each one's equation becomes lambda_r = 0 (and nothing else reads its column)."""
    for r in range(off.shape[0]):
        if off[r]:
            a[r, :] = 0.0
            a[:, r] = 0.0
            a[r, r] = 1.0
            s[r, :] = 0.0
            rhs[r] = 0.0


def booked(kind, work, loss, power):
    """(work, loss) with a row's power [W] added where its kind books it: the work fed in (WORK_POWER, a motor)
    or the power taken out (LOSS_POWER, a lossy mesh: negative)."""
    if kind == WORK_POWER:
        return work + power, loss
    return work, loss + power
