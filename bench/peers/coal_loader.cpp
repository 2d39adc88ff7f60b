// SPDX-License-Identifier: BSD-3-Clause
#include <dlfcn.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include "coal_api.hpp"
#include "peers.hpp"

namespace proxima::bench {

namespace {

// The installed copy beside an installed program (<prefix>/bin →
// <prefix>/lib/proxima), else the build tree's.
std::string coal_library_path() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed =
        self.parent_path() / ".." / "lib" / "proxima" / std::filesystem::path(PROXIMA_BENCH_COAL_LIBRARY).filename();
    if (std::filesystem::exists(installed, ec)) return installed.string();
  }
  return PROXIMA_BENCH_COAL_LIBRARY;
}

}  // namespace

const CoalApi& coal_api() {
  // Function-local: loaded once per process, on first use (in a forked
  // child, that child alone).
  static const CoalApi* const api = [] {
    void* library = dlopen(coal_library_path().c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
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
