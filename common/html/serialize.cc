#include "common/html/serialize.h"

#include <libxml/tree.h>
#include <libxml/xmlsave.h>

#include <memory>
#include <optional>
#include <string_view>

#include "absl/strings/ascii.h"
#include "common/util/utf8.h"

namespace vertex::html {
namespace {

constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

struct DocDeleter {
  void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
struct BufferDeleter {
  void operator()(xmlBuffer* b) const { xmlBufferFree(b); }
};

std::string_view View(const xmlChar* s) {
  return s == nullptr ? std::string_view() : std::string_view(reinterpret_cast<const char*>(s));
}

// U+FFFE or U+FFFF at s[i] (EF BF BE / EF BF BF).
bool IsNoncharacterAt(std::string_view s, size_t i) {
  return s[i] == '\xEF' && i + 2 < s.size() && s[i + 1] == '\xBF' && (s[i + 2] == '\xBE' || s[i + 2] == '\xBF');
}

bool IsForbiddenControl(unsigned char c) { return c < 0x20 && c != '\t' && c != '\n' && c != '\r'; }

bool IsXmlText(std::string_view s) {
  if (!util::IsValidUtf8(s)) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (IsForbiddenControl(static_cast<unsigned char>(s[i])) || IsNoncharacterAt(s, i)) return false;
  }
  return true;
}

// `s` with the characters XML 1.0 forbids replaced (see serialize.h).
std::string ToXmlText(std::string_view s) {
  const std::string valid = util::ToValidUtf8(s);
  std::string out;
  out.reserve(valid.size());
  for (size_t i = 0; i < valid.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(valid[i]);
    if (c == '\f' || c == '\v') {
      out.push_back(' ');
    } else if (IsForbiddenControl(c)) {
      out += kReplacement;
    } else if (IsNoncharacterAt(valid, i)) {
      out += kReplacement;
      i += 2;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

// The text as libxml2 should store it: `s` itself when XML allows it.
const xmlChar* XmlText(const xmlChar* s, std::optional<std::string>* scratch) {
  if (IsXmlText(View(s))) return s;
  scratch->emplace(ToXmlText(View(s)));
  return reinterpret_cast<const xmlChar*>((*scratch)->c_str());
}

// Whether XML keeps `name` as it is: a QName that declares no namespace.
bool IsKeptName(const xmlChar* name) {
  const std::string_view n = View(name);
  if (n == "xmlns" || n.substr(0, 6) == "xmlns:") return false;
  return xmlValidateQName(name, /*space=*/0) == 0;
}

std::string RenamedName(std::string_view name) {
  std::string out = "_";
  for (char c : name) {
    out.push_back(absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' ? c : '_');
  }
  return out;
}

// Whether `src` or its copy `dst` has an attribute named `name`.
bool HasAttribute(const xmlNode* src, const xmlNode* dst, const std::string& name) {
  for (const xmlNode* n : {src, dst}) {
    for (xmlAttrPtr a = n->properties; a != nullptr; a = a->next) {
      if (View(a->name) == name) return true;
    }
  }
  return false;
}

// Copies the attributes of `src` onto `dst`, renamed and repaired as needed.
void CopyAttributes(const xmlNode* src, xmlNodePtr dst) {
  for (xmlAttrPtr a = src->properties; a != nullptr; a = a->next) {
    std::string name(View(a->name));
    if (!IsKeptName(a->name)) {
      name = RenamedName(name);
      while (HasAttribute(src, dst, name)) name += '_';
    }
    const xmlChar* raw = a->children != nullptr ? a->children->content : nullptr;
    std::optional<std::string> scratch;
    const xmlChar* value = raw != nullptr ? XmlText(raw, &scratch) : reinterpret_cast<const xmlChar*>("");
    xmlNewProp(dst, reinterpret_cast<const xmlChar*>(name.c_str()), value);
  }
}

// A copy of the element or text node `src` (without children), or null for
// other node types.
xmlNodePtr CopyNode(xmlDocPtr doc, const xmlNode* src) {
  if (src->type == XML_TEXT_NODE) {
    std::optional<std::string> scratch;
    return xmlNewDocText(
        doc, src->content != nullptr ? XmlText(src->content, &scratch) : reinterpret_cast<const xmlChar*>(""));
  }
  if (src->type != XML_ELEMENT_NODE) return nullptr;
  const std::string name = IsKeptName(src->name) ? std::string(View(src->name)) : RenamedName(View(src->name));
  xmlNodePtr node = xmlNewDocNode(doc, nullptr, reinterpret_cast<const xmlChar*>(name.c_str()), nullptr);
  if (node != nullptr) CopyAttributes(src, node);
  return node;
}

// Appends `child` to `parent`, after an empty comment when both it and the
// last child are text (so that they stay two nodes once parsed back).
void Append(xmlNodePtr parent, xmlNodePtr child) {
  if (child->type == XML_TEXT_NODE && parent->last != nullptr && parent->last->type == XML_TEXT_NODE) {
    Append(parent, xmlNewDocComment(parent->doc, reinterpret_cast<const xmlChar*>("")));
  }
  LinkLastChild(parent, child);
}

// Copies the element and text nodes of `src` into `dst`, without recursion.
// False when libxml2 cannot allocate a node.
bool CopyTree(const xmlDoc* src, xmlDocPtr dst) {
  const xmlNode* const end = reinterpret_cast<const xmlNode*>(src);
  xmlNodePtr parent = reinterpret_cast<xmlNodePtr>(dst);
  for (const xmlNode* n = src->children; n != nullptr;) {
    xmlNodePtr copy = CopyNode(dst, n);
    if (copy == nullptr && (n->type == XML_ELEMENT_NODE || n->type == XML_TEXT_NODE)) return false;
    if (copy != nullptr) Append(parent, copy);
    if (copy != nullptr && n->type == XML_ELEMENT_NODE && n->children != nullptr) {
      parent = copy;
      n = n->children;
      continue;
    }
    while (n != nullptr && n->next == nullptr) {
      n = n->parent;
      if (n == end || n == nullptr) return true;
      parent = parent->parent;
    }
    n = n->next;
  }
  return true;
}

// `doc` written by libxml2's XML serialiser in UTF-8; nullopt on failure.
std::optional<std::string> Save(xmlDocPtr doc) {
  std::unique_ptr<xmlBuffer, BufferDeleter> buffer(xmlBufferCreate());
  if (buffer == nullptr) return std::nullopt;
  xmlSaveCtxtPtr ctxt = xmlSaveToBuffer(buffer.get(), "UTF-8", XML_SAVE_AS_XML | XML_SAVE_NO_EMPTY);
  if (ctxt == nullptr) return std::nullopt;
  const long written = xmlSaveDoc(ctxt, doc);
  if (xmlSaveClose(ctxt) < 0 || written < 0) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(xmlBufferContent(buffer.get())),
                     static_cast<size_t>(xmlBufferLength(buffer.get())));
}

}  // namespace

absl::StatusOr<std::string> SerializeXhtml(const Page& page) {
  if (page.doc() == nullptr) {
    return absl::FailedPreconditionError("page '" + page.url() + "' has no document");
  }
  std::unique_ptr<xmlDoc, DocDeleter> copy(xmlNewDoc(reinterpret_cast<const xmlChar*>("1.0")));
  if (copy == nullptr || !CopyTree(page.doc(), copy.get())) {
    return absl::InternalError("page '" + page.url() + "': libxml2 cannot copy its document");
  }
  std::optional<std::string> xml = Save(copy.get());
  if (!xml) return absl::InternalError("page '" + page.url() + "': libxml2 cannot serialise its document");
  return *std::move(xml);
}

}  // namespace vertex::html
