// Bender–Rabin's guarantees for centrally scheduled heterogeneous runs
// (§2), evaluated for a DAG and fixed speeds, so that every simulated run
// can be checked against them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "Dag.h"
#include "Simulate.h"

namespace cilkpp::sim {

// Theorem 2: any maximum-utilization schedule finishes by
// W1/pi_tot + (pi_2/pi_1 + ... + pi_p/pi_{p-1}) W_inf/pi_tot.
double theorem2Bound(const DagMeasures &m, std::vector<double> speeds);
// Theorem 4: any high-utilization(beta) schedule finishes by
// W1/pi_tot + ((p-1)/p) beta W_inf/pi_ave.
double theorem4Bound(const DagMeasures &m, const std::vector<double> &speeds,
                     double beta);
// Theorem 5: a high- or maximum-utilization schedule of threads with fixed
// speeds migrates at most 2 S1 times. (The Central Manager schedules tasks,
// not threads: a processor may leave its thread for an older queued task,
// so only Theorem 2 applies to it.)
std::uint64_t theorem5Bound(const DagMeasures &m);

// Checks one run of `policy` (maxutil, cm or highutil; others pass
// trivially) with fixed speeds; returns what it violates, or "".
std::string checkTheorems(const DagMeasures &m,
                          const std::vector<double> &speeds,
                          const PolicySpec &policy, const RunStats &run);

} // namespace cilkpp::sim
