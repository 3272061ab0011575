import CLibXML2

/// A page parsed by libxml2's HTML parser into a flat array of nodes (index 0 is the root).
///
/// Built and walked without recursion, so deeply nested markup cannot overflow the stack
/// (libxml2 itself caps nesting at 256 levels and keeps the rest as siblings).
struct HTMLDocument: Sendable {
  private(set) var nodes: [HTMLNode]

  /// libxml2 wants `xmlInitParser` once before parsing on several threads at once.
  private static let libraryReady: Bool = {
    xmlInitParser()
    return true
  }()

  /// Parses `bytes` as HTML. Bytes that are valid UTF-8 are read as UTF-8 whatever the page
  /// says; otherwise libxml2 follows the page's `<meta charset>` (Windows-1252 by default).
  /// A tag's attributes past `maxAttributesPerTag` are dropped first: libxml2's cost grows with
  /// the square of one tag's attributes.
  init(bytes: [UInt8]) {
    nodes = [HTMLNode(name: "#root", attributes: [], text: "", children: [], parent: -1)]
    guard Self.libraryReady, !bytes.isEmpty, bytes.count < Int(Int32.max) else { return }
    let bytes = Self.uncrowded(bytes) ?? bytes
    let encoding: String? = String(validating: bytes, as: UTF8.self) != nil ? "UTF-8" : nil
    let options = Int32(
      HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
        | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue)
    let document = bytes.withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
        htmlReadMemory(pointer, Int32(buffer.count), nil, encoding, options)
      }
    }
    guard let document else { return }
    defer { xmlFreeDoc(document) }
    var stack: [(node: xmlNodePtr, parent: Int)] = []
    var child = document.pointee.children
    var pending: [(node: xmlNodePtr, parent: Int)] = []
    while let current = child {
      pending.append((current, 0))
      child = current.pointee.next
    }
    stack.append(contentsOf: pending.reversed())
    while let (node, parent) = stack.popLast() {
      guard let index = append(node, parent: parent) else { continue }
      pending.removeAll(keepingCapacity: true)
      var next = node.pointee.children
      while let current = next {
        pending.append((current, index))
        next = current.pointee.next
      }
      stack.append(contentsOf: pending.reversed())
    }
  }

  /// Appends one libxml2 node under `parent`; returns its index when its children are wanted.
  private mutating func append(_ node: xmlNodePtr, parent: Int) -> Int? {
    switch node.pointee.type {
    case XML_ELEMENT_NODE:
      let name = String(cString: node.pointee.name).lowercased()
      var attributes: [(name: String, value: String)] = []
      var attribute = node.pointee.properties
      while let current = attribute {
        let key = String(cString: current.pointee.name).lowercased()
        var value = ""
        var part = current.pointee.children
        while let text = part {
          if let content = text.pointee.content { value += String(cString: content) }
          part = text.pointee.next
        }
        attributes.append((key, value))
        attribute = current.pointee.next
      }
      let index = nodes.count
      nodes.append(
        HTMLNode(name: name, attributes: attributes, text: "", children: [], parent: parent))
      nodes[parent].children.append(index)
      return index
    case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
      guard let content = node.pointee.content else { return nil }
      let index = nodes.count
      nodes.append(
        HTMLNode(
          name: "", attributes: [], text: String(cString: content), children: [], parent: parent))
      nodes[parent].children.append(index)
      return nil
    default:
      return nil
    }
  }

  /// Indices of every element below `root` (not `root` itself), in document order.
  func descendants(of root: Int = 0) -> [Int] {
    var result: [Int] = []
    var stack = Array(nodes[root].children.reversed())
    while let index = stack.popLast() {
      guard !nodes[index].isText else { continue }
      result.append(index)
      stack.append(contentsOf: nodes[index].children.reversed())
    }
    return result
  }

  /// All the text below `root` as it reads: block elements and `<br>` break lines, scripts,
  /// styles and other non-content elements are left out. Lines are whitespace-collapsed and
  /// never empty.
  func lines(of root: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    func breakLine() {
      // NB: markup often leaves a line break between an inline element and the comma after
      // it ("<span>Garlic</span>\n, minced"): no space before punctuation that follows.
      let line = HTMLText.withoutSpaceBeforeComma(HTMLText.collapse(current))
      if !line.isEmpty { lines.append(line) }
      current = ""
    }
    // Entries: a node to visit, or (-index - 1) to close a block element.
    var stack = [root]
    while let entry = stack.popLast() {
      if entry < 0 {
        breakLine()
        continue
      }
      let node = nodes[entry]
      if node.isText {
        current += node.text
        continue
      }
      if HTMLText.skipped.contains(node.name) { continue }
      if node.name == "br" {
        breakLine()
        continue
      }
      let block = HTMLText.blocks.contains(node.name)
      if block {
        breakLine()
        stack.append(-entry - 1)
      }
      stack.append(contentsOf: node.children.reversed())
    }
    breakLine()
    return lines
  }

  /// The text below `root` on one line.
  func text(of root: Int) -> String {
    lines(of: root).joined(separator: " ")
  }

  /// The nearest ancestor of `index` (excluding itself) for which `test` holds.
  func ancestor(of index: Int, where test: (HTMLNode) -> Bool) -> Int? {
    var current = nodes[index].parent
    while current >= 0 {
      if test(nodes[current]) { return current }
      current = nodes[current].parent
    }
    return nil
  }
}
