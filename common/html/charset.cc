#include "common/html/charset.h"

#include <iconv.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "common/util/utf8.h"

namespace vertex::html {
namespace {

constexpr size_t kMetaScanBytes = 8192;

struct Alias {
  const char* label;
  const char* iconv_name;
  const char* canonical;
};

// WHATWG labels mapped to glibc iconv names. Labels not listed are tried
// verbatim with iconv.
constexpr Alias kAliases[] = {
    {"utf-8", "UTF-8", "UTF-8"},
    {"utf8", "UTF-8", "UTF-8"},
    {"unicode-1-1-utf-8", "UTF-8", "UTF-8"},
    {"us-ascii", "WINDOWS-1252", "windows-1252"},
    {"ascii", "WINDOWS-1252", "windows-1252"},
    {"iso-8859-1", "WINDOWS-1252", "windows-1252"},
    {"iso8859-1", "WINDOWS-1252", "windows-1252"},
    {"latin1", "WINDOWS-1252", "windows-1252"},
    {"l1", "WINDOWS-1252", "windows-1252"},
    {"windows-1252", "WINDOWS-1252", "windows-1252"},
    {"cp1252", "WINDOWS-1252", "windows-1252"},
    {"x-cp1252", "WINDOWS-1252", "windows-1252"},
    {"shift_jis", "CP932", "Shift_JIS"},
    {"shift-jis", "CP932", "Shift_JIS"},
    {"sjis", "CP932", "Shift_JIS"},
    {"x-sjis", "CP932", "Shift_JIS"},
    {"ms_kanji", "CP932", "Shift_JIS"},
    {"windows-31j", "CP932", "Shift_JIS"},
    {"euc-jp", "EUC-JP", "EUC-JP"},
    {"iso-2022-jp", "ISO-2022-JP", "ISO-2022-JP"},
    {"gb2312", "GB18030", "GBK"},
    {"gbk", "GB18030", "GBK"},
    {"gb18030", "GB18030", "gb18030"},
    {"big5", "BIG5-HKSCS", "Big5"},
    {"euc-kr", "CP949", "EUC-KR"},
    {"koi8-r", "KOI8-R", "KOI8-R"},
    {"koi8-u", "KOI8-U", "KOI8-U"},
    {"utf-16le", "UTF-16LE", "UTF-16LE"},
    {"utf-16be", "UTF-16BE", "UTF-16BE"},
};

struct Encoding {
  std::string iconv_name;
  std::string canonical;
};

Encoding ResolveLabel(std::string label) {
  absl::AsciiStrToLower(&label);
  for (const Alias& a : kAliases) {
    if (label == a.label) return {a.iconv_name, a.canonical};
  }
  std::string upper = absl::AsciiStrToUpper(label);
  return {upper, label};
}

// The value following "charset" in `s` (after '=' and optional quotes).
std::string CharsetValueAfter(std::string_view s, size_t pos) {
  pos += 7;  // strlen("charset")
  while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t')) ++pos;
  if (pos >= s.size() || s[pos] != '=') return "";
  ++pos;
  while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '"' || s[pos] == '\'')) ++pos;
  size_t end = pos;
  while (end < s.size() && (absl::ascii_isalnum(static_cast<unsigned char>(s[end])) ||
                            s[end] == '-' || s[end] == '_' || s[end] == '.' || s[end] == ':')) {
    ++end;
  }
  return absl::AsciiStrToLower(std::string(s.substr(pos, end - pos)));
}

// Converts with iconv; undecodable input bytes become U+FFFD.
bool ConvertWithIconv(std::string_view in, const std::string& from, DecodedText* out) {
  iconv_t cd = iconv_open("UTF-8", from.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) return false;
  std::string result;
  result.reserve(in.size() + in.size() / 2);
  char* src = const_cast<char*>(in.data());
  size_t src_left = in.size();
  char buf[16384];
  while (src_left > 0) {
    char* dst = buf;
    size_t dst_left = sizeof(buf);
    const size_t rc = iconv(cd, &src, &src_left, &dst, &dst_left);
    result.append(buf, dst - buf);
    if (rc == static_cast<size_t>(-1)) {
      if (errno == E2BIG) continue;
      // EILSEQ or EINVAL (truncated input): replace one byte and go on.
      util::AppendUtf8(0xFFFD, &result);
      ++out->replacements;
      ++src;
      --src_left;
      iconv(cd, nullptr, nullptr, nullptr, nullptr);
    }
  }
  iconv_close(cd);
  out->storage = util::ToValidUtf8(result);
  out->converted = true;
  return true;
}

size_t CountReplacementCharacters(std::string_view s) {
  size_t n = 0;
  for (size_t p = 0; (p = s.find("\xEF\xBF\xBD", p)) != std::string_view::npos; p += 3) ++n;
  return n;
}

void DecodeUtf8(std::string_view bytes, DecodedText* out) {
  out->encoding = "UTF-8";
  if (util::IsValidUtf8(bytes)) {
    out->input = bytes;
    out->converted = false;
    return;
  }
  // Repaired once; the sequences replaced are the U+FFFDs it added.
  out->storage = util::ToValidUtf8(bytes);
  out->replacements = CountReplacementCharacters(out->storage) - CountReplacementCharacters(bytes);
  out->converted = true;
}

}  // namespace

std::string CharsetFromContentType(std::string_view content_type) {
  const std::string lower = absl::AsciiStrToLower(std::string(content_type));
  const size_t pos = lower.find("charset");
  if (pos == std::string::npos) return "";
  return CharsetValueAfter(lower, pos);
}

std::string CharsetFromMeta(std::string_view bytes) {
  const std::string head = absl::AsciiStrToLower(std::string(bytes.substr(0, kMetaScanBytes)));
  size_t pos = 0;
  while ((pos = head.find("<meta", pos)) != std::string::npos) {
    const size_t end = head.find('>', pos);
    const std::string_view tag =
        std::string_view(head).substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    const size_t cs = tag.find("charset");
    if (cs != std::string_view::npos) {
      std::string value = CharsetValueAfter(tag, cs);
      if (!value.empty()) return value;
    }
    pos += 5;
  }
  return "";
}

DecodedText DecodeToUtf8(std::string_view bytes, std::string_view http_content_type) {
  DecodedText out;
  // 1. Byte-order marks.
  if (bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF") {
    out.source = CharsetSource::kBom;
    DecodeUtf8(bytes.substr(3), &out);
    return out;
  }
  if (bytes.size() >= 2 && (bytes.substr(0, 2) == "\xFF\xFE" || bytes.substr(0, 2) == "\xFE\xFF")) {
    const bool le = bytes[0] == '\xFF';
    out.source = CharsetSource::kBom;
    out.encoding = le ? "UTF-16LE" : "UTF-16BE";
    if (ConvertWithIconv(bytes.substr(2), out.encoding, &out)) return out;
  }
  // 2. HTTP header, 3. <meta>. UTF-16 declared in a <meta> is impossible in
  // an ASCII-compatible prescan, so it means UTF-8 (HTML5 8.2.2.2).
  std::string label = CharsetFromContentType(http_content_type);
  out.source = CharsetSource::kHttpHeader;
  if (label.empty()) {
    label = CharsetFromMeta(bytes);
    out.source = CharsetSource::kMetaTag;
    if (absl::StartsWith(label, "utf-16")) label = "utf-8";
  }
  if (!label.empty()) {
    const Encoding enc = ResolveLabel(label);
    if (enc.iconv_name == "UTF-8") {
      DecodeUtf8(bytes, &out);
      return out;
    }
    out.encoding = enc.canonical;
    if (ConvertWithIconv(bytes, enc.iconv_name, &out)) return out;
    out.replacements = 0;  // unknown label: fall through to the guess
  }
  // 4. Guess.
  out.source = CharsetSource::kDefault;
  if (util::IsValidUtf8(bytes)) {
    out.encoding = "UTF-8";
    out.input = bytes;
    out.converted = false;
    return out;
  }
  out.encoding = "windows-1252";
  if (!ConvertWithIconv(bytes, "WINDOWS-1252", &out)) DecodeUtf8(bytes, &out);
  return out;
}

}  // namespace vertex::html
