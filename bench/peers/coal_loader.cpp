// SPDX-License-Identifier: BSD-3-Clause
#include <dlfcn.h>

#include <stdexcept>
#include <string>

#include "coal_api.hpp"
#include "peers.hpp"

namespace proxima::bench {

const CoalApi& coal_api() {
  // Function-local: loaded once per process, on first use (in a forked
  // child, that child alone).
  static const CoalApi* const api = [] {
    void* library = dlopen(PROXIMA_BENCH_COAL_LIBRARY, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (library == nullptr) throw std::runtime_error(std::string("loading the Coal peer: ") + dlerror());
    void* entry = dlsym(library, "proxima_bench_coal_api");
    if (entry == nullptr) throw std::runtime_error(std::string("the Coal peer library: ") + dlerror());
    return reinterpret_cast<const CoalApi* (*)()>(entry)();
  }();
  return *api;
}

PeerCell run_coal_distance(const Workload& work, int repeats) { return coal_api().distance(work, repeats); }
PeerCell run_coal_signed(const Workload& work, int repeats) { return coal_api().signed_distance(work, repeats); }
PeerCell run_coal_contact(const Workload& work, int repeats) { return coal_api().contact(work, repeats); }

}  // namespace proxima::bench
