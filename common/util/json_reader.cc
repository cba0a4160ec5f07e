#include "common/util/json_reader.h"

#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/util/status_macros.h"
#include "common/util/utf8.h"

namespace vertex::util {

const Json* Json::Find(std::string_view key) const {
  for (size_t i = 0; i < member_names.size(); ++i) {
    if (member_names[i] == key) return &member_values[i];
  }
  return nullptr;
}

const char* JsonKindName(Json::Kind kind) {
  switch (kind) {
    case Json::Kind::kNull: return "null";
    case Json::Kind::kBool: return "boolean";
    case Json::Kind::kNumber: return "number";
    case Json::Kind::kString: return "string";
    case Json::Kind::kArray: return "array";
    case Json::Kind::kObject: return "object";
  }
  return "?";
}

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A recursive-descent reader over one document. Value() recurses once per
// nested array or object, at most max_depth times.
class Reader {
 public:
  Reader(std::string_view text, std::string_view where, int max_depth)
      : text_(text), where_(where), max_depth_(max_depth) {}

  absl::StatusOr<Json> Document() {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    VERTEX_ASSIGN_OR_RETURN(Json value, Value(0));
    SkipSpace();
    if (pos_ != text_.size()) return Error("trailing text after the JSON value");
    return value;
  }

 private:
  // "offset N", or "line L, column C (offset N)" in a document of several
  // lines (columns count bytes from 1).
  std::string Position(size_t at) const {
    const size_t newline = text_.find('\n');
    if (newline == std::string_view::npos || newline + 1 >= text_.size()) {
      return absl::StrCat("offset ", at);
    }
    size_t line = 1, line_start = 0;
    for (size_t i = 0; i < at && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return absl::StrCat("line ", line, ", column ", at - line_start + 1, " (offset ", at, ")");
  }
  absl::Status ErrorAt(size_t at, std::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(where_), ": ", Position(at), ": ", std::string(what)));
  }
  absl::Status Error(std::string_view what) const { return ErrorAt(pos_, what); }

  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  absl::StatusOr<Json> Value(int depth) {
    SkipSpace();
    if (pos_ >= text_.size()) return Error("unexpected end of JSON");
    const char c = text_[pos_];
    if (c == '{' || c == '[') {
      if (depth >= max_depth_) {
        return absl::ResourceExhaustedError(absl::StrCat(std::string(where_), ": ", Position(pos_),
                                                         ": JSON nested deeper than ", max_depth_));
      }
      return c == '{' ? Object(depth) : Array(depth);
    }
    Json j;
    if (c == '"') {
      j.kind = Json::Kind::kString;
      VERTEX_ASSIGN_OR_RETURN(j.scalar, String());
      return j;
    }
    for (const auto& [word, kind] :
         {std::pair<std::string_view, Json::Kind>{"true", Json::Kind::kBool},
          {"false", Json::Kind::kBool},
          {"null", Json::Kind::kNull}}) {
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        j.kind = kind;
        j.scalar = std::string(word);
        return j;
      }
    }
    if (c == '-' || IsDigit(c)) return Number();
    return Error("expected a JSON value");
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  absl::StatusOr<Json> Number() {
    const size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '0') {
      ++pos_;
    } else if (!Digits()) {
      return Error("expected a digit in a number");
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!Digits()) return Error("expected a digit after '.' in a number");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!Digits()) return Error("expected a digit in a number's exponent");
    }
    Json j;
    j.kind = Json::Kind::kNumber;
    j.scalar = std::string(text_.substr(start, pos_ - start));
    return j;
  }
  // Skips [0-9]+; false when there is no digit.
  bool Digits() {
    const size_t start = pos_;
    while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    return pos_ > start;
  }

  absl::StatusOr<Json> Array(int depth) {
    ++pos_;  // [
    Json j;
    j.kind = Json::Kind::kArray;
    if (Consume(']')) return j;
    do {
      VERTEX_ASSIGN_OR_RETURN(Json item, Value(depth + 1));
      j.items.push_back(std::move(item));
    } while (Consume(','));
    if (!Consume(']')) return Error("expected ',' or ']'");
    return j;
  }

  absl::StatusOr<Json> Object(int depth) {
    ++pos_;  // {
    Json j;
    j.kind = Json::Kind::kObject;
    if (Consume('}')) return j;
    std::set<std::string> names;
    do {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') return Error("expected a member name");
      const size_t name_at = pos_;
      VERTEX_ASSIGN_OR_RETURN(std::string name, String());
      if (!names.insert(name).second) {
        return ErrorAt(name_at, absl::StrCat("member \"", name, "\" given twice"));
      }
      if (!Consume(':')) return Error("expected ':'");
      VERTEX_ASSIGN_OR_RETURN(Json value, Value(depth + 1));
      j.member_names.push_back(std::move(name));
      j.member_values.push_back(std::move(value));
    } while (Consume(','));
    if (!Consume('}')) return Error("expected ',' or '}'");
    return j;
  }

  // Four hex digits at pos_.
  absl::StatusOr<uint32_t> Hex4() {
    if (pos_ + 4 > text_.size()) return Error("truncated \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_];
      v <<= 4;
      if (IsDigit(h)) {
        v |= h - '0';
      } else if (h >= 'a' && h <= 'f') {
        v |= h - 'a' + 10;
      } else if (h >= 'A' && h <= 'F') {
        v |= h - 'A' + 10;
      } else {
        return Error("bad hex digit in a \\u escape");
      }
      ++pos_;
    }
    return v;
  }

  // The code point of a \u escape whose 'u' was just read: a surrogate pair
  // (\uD83D\uDE00) makes one code point; a lone surrogate is an error.
  absl::StatusOr<char32_t> UnicodeEscape() {
    const size_t at = pos_ - 2;
    VERTEX_ASSIGN_OR_RETURN(uint32_t cp, Hex4());
    if (cp >= 0xDC00 && cp < 0xE000) return ErrorAt(at, "unpaired low surrogate in a \\u escape");
    if (cp < 0xD800 || cp >= 0xDC00) return static_cast<char32_t>(cp);
    if (text_.substr(pos_, 2) != "\\u") return ErrorAt(at, "unpaired high surrogate in a \\u escape");
    pos_ += 2;
    VERTEX_ASSIGN_OR_RETURN(uint32_t low, Hex4());
    if (low < 0xDC00 || low >= 0xE000) {
      return ErrorAt(at, "high surrogate not followed by a low surrogate");
    }
    return static_cast<char32_t>(0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00));
  }

  // A string at pos_ (on its opening quote), unescaped.
  absl::StatusOr<std::string> String() {
    const size_t start = pos_++;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      const char c = text_[pos_++];
      if (static_cast<unsigned char>(c) < 0x20) {
        return ErrorAt(pos_ - 1, "control character in a string");
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) break;
      const char e = text_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          VERTEX_ASSIGN_OR_RETURN(char32_t cp, UnicodeEscape());
          AppendUtf8(cp, &out);
          break;
        }
        default:
          return ErrorAt(pos_ - 2, absl::StrCat("bad escape \\", std::string(1, e)));
      }
    }
    if (pos_ >= text_.size()) return ErrorAt(start, "unterminated string");
    ++pos_;  // closing quote
    if (!IsValidUtf8(out)) return ErrorAt(start, "invalid UTF-8 in a string");
    return out;
  }

  std::string_view text_;
  std::string_view where_;
  int max_depth_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<Json> ParseJson(std::string_view text, std::string_view where, int max_depth) {
  return Reader(text, where, max_depth).Document();
}

}  // namespace vertex::util
