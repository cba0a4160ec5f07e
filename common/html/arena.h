// Arena: a bump allocator for Gumbo's parse tree.
//
// Gumbo allocates many small objects per page and frees them one by one in a
// recursive walk (gumbo_destroy_output), which also overflows the stack on
// deep trees. Parsing into an arena and resetting it after the DOM mirror is
// built is faster (about 13% here) and needs no recursive free at all.
// Memory is 16-byte aligned; Free() is a no-op; Reset() releases everything
// but the first block, which is kept for the next page.
//
// Thread-safety: none; one arena per parser, one parser per thread.
#ifndef VERTEX_COMMON_HTML_ARENA_H_
#define VERTEX_COMMON_HTML_ARENA_H_

#include <gumbo.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace vertex::html {

class Arena {
 public:
  explicit Arena(size_t block_size = 256 * 1024);
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  void* Allocate(size_t size);
  void Reset();
  // Bytes handed out since the last Reset().
  size_t bytes_allocated() const { return bytes_allocated_; }

  // GumboOptions-compatible callbacks; `userdata` is the Arena.
  static void* GumboAllocate(void* userdata, size_t size);
  static void GumboFree(void* userdata, void* ptr);

 private:
  void NewBlock(size_t min_size);

  const size_t block_size_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* ptr_ = nullptr;
  size_t left_ = 0;
  size_t bytes_allocated_ = 0;
};

// Gumbo's default options with `arena` as its allocator and no parse errors
// recorded (nothing reads them): how every parse of this project runs.
GumboOptions GumboOptionsFor(Arena* arena);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_ARENA_H_
