#include "response.hpp"

#include <algorithm>

namespace carom::physics::detail {

double respond_disk_disk(Vec2& va, double inv_mass_a, Vec2& vb, double inv_mass_b, Vec2 normal,
                         double e, double mu) {
    const Vec2 v_rel = va - vb;
    const double vn = dot(v_rel, normal);
    const double inv_mass_sum = inv_mass_a + inv_mass_b;
    if (vn >= 0.0 || inv_mass_sum == 0.0) return 0.0;

    const double j = -(1.0 + e) * vn / inv_mass_sum;
    va += normal * (j * inv_mass_a);
    vb -= normal * (j * inv_mass_b);

    if (mu > 0.0) {
        // Coulomb: the tangential impulse stops the sliding, at most mu * j.
        const Vec2 vt = v_rel - normal * vn;
        const double vt_len = length(vt);
        if (vt_len > 0.0) {
            const double jt = std::min(mu * j, vt_len / inv_mass_sum);
            const Vec2 dir = vt / vt_len;
            va -= dir * (jt * inv_mass_a);
            vb += dir * (jt * inv_mass_b);
        }
    }
    return j;
}

double respond_disk_static(Vec2& v, double inv_mass, Vec2 normal, double e, double mu,
                           WallResponse response) {
    const double vn = dot(v, normal);
    if (vn >= 0.0) return 0.0;

    double dvn = 0.0;  // change of the normal speed
    if (response == WallResponse::slide) {
        dvn = -vn;
        v -= normal * vn;
    } else {
        dvn = -(1.0 + e) * vn;
        const Vec2 vt = v - normal * vn;
        v += normal * dvn;
        if (mu > 0.0) {
            const double vt_len = length(vt);
            if (vt_len > 0.0) v -= vt * (std::min(mu * dvn, vt_len) / vt_len);
        }
    }
    return inv_mass > 0.0 ? dvn / inv_mass : dvn;
}

}  // namespace carom::physics::detail
