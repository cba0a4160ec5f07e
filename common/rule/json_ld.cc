#include "common/rule/json_ld.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/html/text.h"

namespace vertex::rule {
namespace {

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xC0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xE0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// A recursive-descent reader over RFC 8259 JSON; recursion is bounded by
// kMaxJsonDepth.
class Reader {
 public:
  explicit Reader(std::string_view text) : s_(text) {}

  absl::Status Document(std::vector<JsonLeaf>* out) {
    if (s_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
    if (absl::Status st = Value("", 0, out); !st.ok()) return st;
    SkipSpace();
    if (pos_ != s_.size()) return Error("text after the JSON value");
    return absl::OkStatus();
  }

 private:
  absl::Status Error(std::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat("JSON: ", std::string(what), " at byte ", pos_));
  }

  void SkipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }

  bool Consume(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  absl::Status Value(const std::string& path, int depth, std::vector<JsonLeaf>* out) {
    SkipSpace();
    if (pos_ >= s_.size()) return Error("unexpected end");
    const char c = s_[pos_];
    if (c == '{' || c == '[') {
      if (depth >= kMaxJsonDepth) {
        return absl::ResourceExhaustedError(absl::StrCat("JSON: nesting deeper than ", kMaxJsonDepth, " at byte ", pos_));
      }
      return c == '{' ? Object(path, depth + 1, out) : Array(path, depth + 1, out);
    }
    if (c == '"') {
      std::string v;
      if (absl::Status st = String(&v); !st.ok()) return st;
      out->push_back({path, std::move(v)});
      return absl::OkStatus();
    }
    for (std::string_view word : {"true", "false"}) {
      if (Consume(word)) {
        out->push_back({path, std::string(word)});
        return absl::OkStatus();
      }
    }
    if (Consume("null")) return absl::OkStatus();
    return Number(path, out);
  }

  absl::Status Object(const std::string& path, int depth, std::vector<JsonLeaf>* out) {
    ++pos_;  // '{'
    SkipSpace();
    if (Consume("}")) return absl::OkStatus();
    while (true) {
      SkipSpace();
      if (pos_ >= s_.size() || s_[pos_] != '"') return Error("expected a key");
      std::string key;
      if (absl::Status st = String(&key); !st.ok()) return st;
      SkipSpace();
      if (!Consume(":")) return Error("expected ':'");
      if (absl::Status st = Value(path.empty() ? key : absl::StrCat(path, ".", key), depth, out); !st.ok()) return st;
      SkipSpace();
      if (Consume("}")) return absl::OkStatus();
      if (!Consume(",")) return Error("expected ',' or '}'");
    }
  }

  absl::Status Array(const std::string& path, int depth, std::vector<JsonLeaf>* out) {
    ++pos_;  // '['
    SkipSpace();
    if (Consume("]")) return absl::OkStatus();
    while (true) {
      if (absl::Status st = Value(path, depth, out); !st.ok()) return st;
      SkipSpace();
      if (Consume("]")) return absl::OkStatus();
      if (!Consume(",")) return Error("expected ',' or ']'");
    }
  }

  absl::Status Hex4(uint32_t* cp) {
    if (pos_ + 4 > s_.size()) return Error("short \\u escape");
    *cp = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = s_[pos_++];
      if (!absl::ascii_isxdigit(static_cast<unsigned char>(h))) return Error("bad \\u escape");
      *cp = *cp * 16 + (absl::ascii_isdigit(static_cast<unsigned char>(h)) ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    return absl::OkStatus();
  }

  // \uXXXX, with a surrogate pair joined; a lone surrogate becomes U+FFFD.
  absl::Status Unicode(std::string* out) {
    uint32_t cp = 0;
    if (absl::Status st = Hex4(&cp); !st.ok()) return st;
    if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
      pos_ += 2;
      uint32_t low = 0;
      if (absl::Status st = Hex4(&low); !st.ok()) return st;
      cp = low >= 0xDC00 && low < 0xE000 ? 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD;
    } else if (cp >= 0xD800 && cp < 0xE000) {
      cp = 0xFFFD;
    }
    AppendUtf8(cp, out);
    return absl::OkStatus();
  }

  absl::Status String(std::string* out) {
    ++pos_;  // '"'
    while (pos_ < s_.size()) {
      const char c = s_[pos_++];
      if (c == '"') return absl::OkStatus();
      if (static_cast<unsigned char>(c) < 0x20) return Error("control character in a string");
      if (c != '\\') {
        *out += c;
        continue;
      }
      if (pos_ >= s_.size()) break;
      const char e = s_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': *out += e; break;
        case 'b': *out += '\b'; break;
        case 'f': *out += '\f'; break;
        case 'n': *out += '\n'; break;
        case 'r': *out += '\r'; break;
        case 't': *out += '\t'; break;
        case 'u':
          if (absl::Status st = Unicode(out); !st.ok()) return st;
          break;
        default:
          return Error("bad escape");
      }
    }
    return Error("unterminated string");
  }

  absl::Status Number(const std::string& path, std::vector<JsonLeaf>* out) {
    const size_t start = pos_;
    const auto digits = [&] {
      const size_t from = pos_;
      while (pos_ < s_.size() && absl::ascii_isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      return pos_ > from;
    };
    Consume("-");
    if (!digits()) return Error("unexpected character");
    if (Consume(".") && !digits()) return Error("bad number");
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (!Consume("+")) Consume("-");
      if (!digits()) return Error("bad number");
    }
    out->push_back({path, std::string(s_.substr(start, pos_ - start))});
    return absl::OkStatus();
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<std::vector<JsonLeaf>> JsonLeaves(std::string_view json) {
  std::vector<JsonLeaf> out;
  Reader reader(json);
  if (absl::Status st = reader.Document(&out); !st.ok()) return st;
  return out;
}

std::vector<std::string> JsonValuesAt(std::string_view json, std::string_view path) {
  std::vector<std::string> out;
  absl::StatusOr<std::vector<JsonLeaf>> leaves = JsonLeaves(json);
  if (!leaves.ok()) return out;
  for (JsonLeaf& leaf : *leaves) {
    if (leaf.path == path) out.push_back(std::move(leaf.value));
  }
  return out;
}

bool IsJsonLdScript(html::Node node) {
  if (node.tag() != "script") return false;
  const std::string_view type = node.attribute_view("type");
  return html::FoldText(type.substr(0, type.find(';'))) == "application/ld+json";
}

}  // namespace vertex::rule
