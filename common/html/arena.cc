#include "common/html/arena.h"

#include <cstdint>

namespace vertex::html {

Arena::Arena(size_t block_size) : block_size_(block_size) {}

void Arena::NewBlock(size_t min_size) {
  const size_t size = min_size > block_size_ ? min_size : block_size_;
  blocks_.emplace_back(new char[size]);
  ptr_ = blocks_.back().get();
  left_ = size;
}

void* Arena::Allocate(size_t size) {
  size = (size + 15) & ~static_cast<size_t>(15);
  if (size > left_) {
    if (size > block_size_ / 4) {
      // A large object gets its own block; the current block stays in use.
      // It goes first so that the current block remains blocks_.back().
      auto block = std::make_unique<char[]>(size);
      void* p = block.get();
      blocks_.insert(blocks_.begin(), std::move(block));
      bytes_allocated_ += size;
      return p;
    }
    NewBlock(size);
  }
  void* p = ptr_;
  ptr_ += size;
  left_ -= size;
  bytes_allocated_ += size;
  return p;
}

void Arena::Reset() {
  bytes_allocated_ = 0;
  if (ptr_ == nullptr) {  // only large blocks were made
    blocks_.clear();
    return;
  }
  // blocks_.back() is the current ordinary block: keep it for the next page.
  std::unique_ptr<char[]> keep = std::move(blocks_.back());
  blocks_.clear();
  blocks_.push_back(std::move(keep));
  ptr_ = blocks_.back().get();
  left_ = block_size_;
}

void* Arena::GumboAllocate(void* userdata, size_t size) {
  return static_cast<Arena*>(userdata)->Allocate(size);
}

void Arena::GumboFree(void*, void*) {}

GumboOptions GumboOptionsFor(Arena* arena) {
  GumboOptions options = kGumboDefaultOptions;
  options.allocator = &Arena::GumboAllocate;
  options.deallocator = &Arena::GumboFree;
  options.userdata = arena;
  options.max_errors = 0;
  return options;
}

}  // namespace vertex::html
