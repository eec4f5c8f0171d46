// The one thread pool of the harness: a loop over [0, count) spread over `threads` host threads, in chunks of
// `grain` indices taken in turn. The first exception stops the loop and is rethrown to the caller.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mmasp {

inline void parallel_for(size_t count, unsigned threads, const std::function<void(size_t)>& body, size_t grain = 16) {
  if (threads <= 1 || count <= grain) {
    for (size_t i = 0; i < count; ++i) body(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  std::vector<std::thread> pool;
  const unsigned used = unsigned(std::min<size_t>(threads, (count + grain - 1) / grain));
  for (unsigned t = 0; t < used; ++t)
    pool.emplace_back([&] {
      try {
        for (size_t i; (i = next.fetch_add(grain)) < count;)
          for (size_t j = i; j < std::min(count, i + grain); ++j) body(j);
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = count;
      }
    });
  for (auto& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace mmasp
