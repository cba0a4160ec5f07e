#include "common/html/editor_html.h"

#include <libxml/tree.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace vertex::html {
namespace {

constexpr char kContentSecurityPolicy[] =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; form-action 'none'";

bool IsPlainChar(char c, std::string_view extra) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || extra.find(c) != std::string_view::npos;
}

bool IsPlain(std::string_view name, std::string_view extra) {
  if (name.empty() || !absl::ascii_isalpha(static_cast<unsigned char>(name.front()))) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return IsPlainChar(c, extra); });
}

// A name an XPath step can test: lowercase letters, digits, '-', in no
// namespace (the mirror's elements are in none; libxml2 puts prefixed names
// in one).
bool IsXPathName(Node e) {
  const std::string_view tag = e.tag();
  if (e.raw()->ns != nullptr || tag.empty() || !absl::ascii_islower(static_cast<unsigned char>(tag.front()))) {
    return false;
  }
  return std::all_of(tag.begin(), tag.end(), [](char c) {
    return absl::ascii_islower(static_cast<unsigned char>(c)) || absl::ascii_isdigit(static_cast<unsigned char>(c)) ||
           c == '-';
  });
}

bool SameNameTest(Node a, Node b) { return a.tag() == b.tag() && b.raw()->ns == nullptr; }

// The step of `node` below its parent (see NodeXPath).
std::string Step(Node node) {
  int position = 1;
  if (node.is_text()) {
    for (Node s = node.previous_sibling(); s; s = s.previous_sibling()) position += s.is_text();
    return absl::StrCat("text()[", position, "]");
  }
  const bool named = IsXPathName(node);
  for (Node s = node.previous_sibling(); s; s = s.previous_sibling()) {
    if (s.is_element() && (!named || SameNameTest(node, s))) ++position;
  }
  return named ? absl::StrCat(std::string(node.tag()), "[", position, "]") : absl::StrCat("*[", position, "]");
}

bool IsDropped(Node e) {
  static constexpr std::string_view kDropped[] = {"script", "noscript", "template", "iframe", "frame", "frameset",
                                                  "object", "embed",    "applet",   "base",   "link"};
  const std::string_view tag = e.tag();
  if (tag == "meta") return e.has_attribute("http-equiv");
  return std::find(std::begin(kDropped), std::end(kDropped), tag) != std::end(kDropped);
}

bool IsVoid(std::string_view tag) {
  static constexpr std::string_view kVoid[] = {"area",  "base", "br",   "col",   "embed",  "hr",    "img",
                                               "input", "link", "meta", "param", "source", "track", "wbr"};
  return std::find(std::begin(kVoid), std::end(kVoid), tag) != std::end(kVoid);
}

bool IsDroppedAttribute(std::string_view name) {
  const std::string lower = absl::AsciiStrToLower(std::string(name));
  return lower.starts_with("on") || lower == "srcdoc" || lower == "formaction" || lower == kEditorXPathAttribute ||
         !IsPlain(name, "-_:.");
}

void AppendEscaped(std::string_view text, bool attribute, std::string* out) {
  for (char c : text) {
    switch (c) {
      case '&':
        *out += "&amp;";
        break;
      case '<':
        *out += "&lt;";
        break;
      case '>':
        *out += "&gt;";
        break;
      case '"':
        *out += attribute ? "&quot;" : "\"";
        break;
      default:
        *out += c;
    }
  }
}

// <style> text, raw: "</" is broken so that it cannot end the element.
void AppendRawText(std::string_view text, std::string* out) {
  for (size_t i = 0; i < text.size(); ++i) {
    *out += text[i];
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') *out += '\\';
  }
}

std::string_view RenderedName(Node e) { return IsPlain(e.tag(), "-:") ? e.tag() : std::string_view("span"); }

void AppendAttributes(Node e, std::string* out) {
  for (xmlAttr* a = e.raw()->properties; a != nullptr; a = a->next) {
    std::string name = reinterpret_cast<const char*>(a->name);
    if (a->ns != nullptr && a->ns->prefix != nullptr) name = absl::StrCat(reinterpret_cast<const char*>(a->ns->prefix), ":", name);
    if (IsDroppedAttribute(name)) continue;
    xmlChar* value = xmlNodeGetContent(reinterpret_cast<xmlNode*>(a));
    absl::StrAppend(out, " ", name, "=\"");
    AppendEscaped(value == nullptr ? "" : reinterpret_cast<const char*>(value), true, out);
    *out += '"';
    xmlFree(value);
  }
}

// The walk's state: the XPath of the open elements and, per open element,
// how many element children of each name it has shown so far.
class Renderer {
 public:
  EditorHtml Render(const Page& page);

 private:
  // The step of element `e`, a child of the innermost open element (or the
  // document), counted as the walk goes: no sibling scan.
  std::string NextStep(Node e);
  void Open(Node e);
  // Ends the innermost open element.
  void Close();

  struct Frame {
    size_t path_size = 0;  // path_'s size before this element's step
    std::string_view end_tag;  // "" for a void element
    std::map<std::string_view, int> named;
    int elements = 0;
  };
  std::string path_;
  std::vector<Frame> frames_{Frame{}};  // frames_[0]: the document
  EditorHtml out_;
};

std::string Renderer::NextStep(Node e) {
  Frame& f = frames_.back();
  ++f.elements;
  if (!IsXPathName(e)) return absl::StrCat("*[", f.elements, "]");
  return absl::StrCat(std::string(e.tag()), "[", ++f.named[e.tag()], "]");
}

void Renderer::Open(Node e) {
  Frame next;
  next.path_size = path_.size();
  next.end_tag = IsVoid(e.tag()) ? std::string_view() : RenderedName(e);
  absl::StrAppend(&path_, "/", NextStep(e));
  absl::StrAppend(&out_.html, "<", std::string(RenderedName(e)), " ", kEditorXPathAttribute, "=\"");
  AppendEscaped(path_, true, &out_.html);
  out_.html += '"';
  AppendAttributes(e, &out_.html);
  out_.html += '>';
  if (frames_.size() == 1) {
    absl::StrAppend(&out_.html, "<meta http-equiv=\"Content-Security-Policy\" content=\"", kContentSecurityPolicy,
                    "\"><meta charset=\"utf-8\">");
  }
  ++out_.elements;
  frames_.push_back(std::move(next));
}

void Renderer::Close() {
  if (!frames_.back().end_tag.empty()) absl::StrAppend(&out_.html, "</", std::string(frames_.back().end_tag), ">");
  path_.resize(frames_.back().path_size);
  frames_.pop_back();
}

EditorHtml Renderer::Render(const Page& page) {
  out_.html = "<!DOCTYPE html>\n";
  Node n = page.root();
  while (n) {
    if (n.is_element() && IsDropped(n)) {
      ++out_.dropped_elements;
      NextStep(n);  // counted in its siblings' positions
    } else if (n.is_element()) {
      Open(n);
      if (Node c = n.first_child()) {
        n = c;
        continue;
      }
      Close();
    } else if (n.is_text()) {
      const std::string text = n.RawText();
      if (n.parent().tag() == "style") {
        AppendRawText(text, &out_.html);
      } else {
        AppendEscaped(text, false, &out_.html);
      }
    }
    while (n && !n.next_sibling()) {
      n = n.parent();
      if (n) Close();
    }
    if (n) n = n.next_sibling();
  }
  while (frames_.size() > 1) Close();  // the root element
  return std::move(out_);
}

}  // namespace

std::string NodeXPath(Node node) {
  std::vector<std::string> steps;
  for (Node n = node; n; n = n.parent()) steps.push_back(Step(n));
  std::string out;
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) absl::StrAppend(&out, "/", *it);
  return out;
}

EditorHtml RenderEditorHtml(const Page& page) { return Renderer().Render(page); }

}  // namespace vertex::html
