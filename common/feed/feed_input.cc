#include "common/feed/feed_input.h"

#include <libxml/HTMLparser.h>

#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace vertex::feed {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// The position just past `end` at or after `from`, or xml.size() when
// `end` does not occur.
size_t PastNext(std::string_view xml, size_t from, std::string_view end) {
  const size_t at = xml.find(end, from);
  return at == std::string_view::npos ? xml.size() : at + end.size();
}

// The position of the first markup after the XML declaration, the
// byte-order mark, white space, comments and processing instructions.
size_t SkipProlog(std::string_view xml) {
  size_t pos = xml.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
  while (pos < xml.size()) {
    const std::string_view rest = xml.substr(pos);
    if (absl::ascii_isspace(static_cast<unsigned char>(rest[0]))) {
      ++pos;
    } else if (rest.starts_with("<?")) {
      pos = PastNext(xml, pos + 2, "?>");
    } else if (rest.starts_with("<!--")) {
      pos = PastNext(xml, pos + 4, "-->");
    } else {
      break;
    }
  }
  return pos;
}

// The end of the internal subset opened at `start` (the ']' closing it,
// outside quotes and comments), or xml.size() when it is unterminated.
size_t InternalSubsetEnd(std::string_view xml, size_t start) {
  size_t i = start;
  while (i < xml.size()) {
    const char c = xml[i];
    if (c == ']') return i;
    if (c == '"' || c == '\'') {
      const size_t close = xml.find(c, i + 1);
      i = close == std::string_view::npos ? xml.size() : close + 1;
    } else if (xml.substr(i, 4) == "<!--") {
      i = PastNext(xml, i + 4, "-->");
    } else {
      ++i;
    }
  }
  return xml.size();
}

// The position of the '[' opening the internal subset of the DOCTYPE at
// `doctype`, or npos when the declaration has none.
size_t InternalSubsetStart(std::string_view xml, size_t doctype) {
  char quote = 0;
  for (size_t i = doctype; i < xml.size(); ++i) {
    const char c = xml[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return std::string_view::npos;
    } else if (c == '[') {
      return i;
    }
  }
  return std::string_view::npos;
}

bool IsXmlPredefined(std::string_view name) {
  return name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos";
}

// The numeric reference for the named reference starting at xml[amp]
// ("&eacute;" -> "&#233;") and its length in `xml`; length 0 when it is
// none to replace.
std::pair<std::string, size_t> NumericFor(std::string_view xml, size_t amp) {
  size_t end = amp + 1;
  if (end >= xml.size() || !absl::ascii_isalpha(static_cast<unsigned char>(xml[end]))) return {"", 0};
  while (end < xml.size() && absl::ascii_isalnum(static_cast<unsigned char>(xml[end])) && end - amp < 40) {
    ++end;
  }
  if (end >= xml.size() || xml[end] != ';') return {"", 0};
  const std::string name(xml.substr(amp + 1, end - amp - 1));
  if (IsXmlPredefined(name)) return {"", 0};
  const htmlEntityDesc* entity = htmlEntityLookup(reinterpret_cast<const xmlChar*>(name.c_str()));
  if (entity == nullptr) return {"", 0};
  return {absl::StrCat("&#", entity->value, ";"), end + 1 - amp};
}

}  // namespace

bool IsAsciiCompatible(std::string_view xml) {
  constexpr std::string_view kForeign[] = {
      std::string_view("\xFE\xFF", 2),         std::string_view("\xFF\xFE", 2),
      std::string_view("\x00\x00\xFE\xFF", 4), std::string_view("\x3C\x00", 2),
      std::string_view("\x00\x3C", 2),         std::string_view("\x4C\x6F\xA7\x94", 4),
  };
  for (std::string_view prefix : kForeign) {
    if (xml.starts_with(prefix)) return false;
  }
  return true;
}

absl::Status CheckFeedProlog(std::string_view xml) {
  const size_t doctype = SkipProlog(xml);
  if (!xml.substr(doctype).starts_with("<!DOCTYPE")) return absl::OkStatus();
  const size_t start = InternalSubsetStart(xml, doctype);
  if (start == std::string_view::npos) return absl::OkStatus();
  const size_t end = InternalSubsetEnd(xml, start + 1);
  if (xml.substr(start, end - start).find("<!ENTITY") != std::string_view::npos) {
    return absl::InvalidArgumentError("feed declares entities in its DTD: refused");
  }
  return absl::OkStatus();
}

std::string ReplaceHtmlEntities(std::string_view xml) {
  std::string out;
  size_t copied = 0;
  size_t i = 0;
  while ((i = xml.find_first_of("&<", i)) != std::string_view::npos) {
    const std::string_view rest = xml.substr(i);
    if (rest.starts_with("<![CDATA[")) {
      i = PastNext(xml, i + 9, "]]>");
    } else if (rest.starts_with("<!--")) {
      i = PastNext(xml, i + 4, "-->");
    } else if (rest.starts_with("<?")) {
      i = PastNext(xml, i + 2, "?>");
    } else if (rest[0] == '&') {
      auto [numeric, length] = NumericFor(xml, i);
      if (length == 0) {
        ++i;
        continue;
      }
      out.append(xml.substr(copied, i - copied)).append(numeric);
      i += length;
      copied = i;
    } else {
      ++i;
    }
  }
  if (copied == 0) return std::string(xml);
  out.append(xml.substr(copied));
  return out;
}

std::string_view StripSpace(std::string_view s) {
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool LooksLikeHtml(std::string_view xml) {
  const std::string head = absl::AsciiStrToLower(std::string(xml.substr(SkipProlog(xml), 14)));
  return absl::StartsWith(head, "<!doctype html") || absl::StartsWith(head, "<html");
}

}  // namespace vertex::feed
