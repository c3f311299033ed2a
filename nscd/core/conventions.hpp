#pragma once
/// @file
/// Sign and ordering conventions used throughout nscd. Every other header refers here.
///
///  (C1) Contact frame R_WC = [n | t1 | t2] (columns, world components), normal FIRST, as in
///       Siconos, FCLIB and MuJoCo. n points from body a to body b.
///  (C2) gap g > 0 means the bodies are separated, g < 0 interpenetration [m].
///  (C3) u = (u_n, u_t1, u_t2) is the velocity of body b relative to body a at the contact point,
///       expressed in the contact frame; u_n > 0 means separating [m/s].
///  (C4) r = (r_n, r_t1, r_t2) is the IMPULSE on body b over one step [N·s], r_n ≥ 0 in contact;
///       body a receives −r. Output files write forces r / h [N].
///  (C5) Coulomb cone K_μ = { r : ‖(r_t1, r_t2)‖ ≤ μ r_n }.
///  (C6) Bodies are indexed 0..nb−1 in scene order; contacts are sorted by (a, b, feature), so
///       their order, and with it the Gauss–Seidel order, is deterministic.
///  (C7) Quaternions are (w, x, y, z) in files and Eigen::Quaterniond in code; q_WB rotates body
///       frame B into world W.
///
/// Frames use monogram notation: p_WC is point C measured and expressed in W, R_WB the
/// orientation of B in W, v_WB the velocity of B's origin (its centre of mass) in W.
