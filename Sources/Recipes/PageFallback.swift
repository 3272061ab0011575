import JSON

/// What a page says about itself outside recipe markup (Open Graph, `<title>`, meta
/// description, its first large image), used for fields a recipe lacks.
struct PageFallback {
  private(set) var title: String?
  private(set) var image: String?
  private(set) var description: String?

  init(document: HTMLDocument) {
    var metas: [String: String] = [:]
    var firstImage: String?
    var titleText: String?
    for index in document.descendants() {
      let node = document.nodes[index]
      switch node.name {
      case "meta":
        let key = (node.attribute("property") ?? node.attribute("name") ?? "").lowercased()
        if let content = node.attribute("content"), !key.isEmpty, metas[key] == nil {
          metas[key] = content
        }
      case "title" where titleText == nil:
        titleText = document.text(of: index)
      case "img" where firstImage == nil:
        if let source = node.attribute("src"), !source.hasPrefix("data:"),
          (node.attribute("width").flatMap(Int.init) ?? 200) >= 200
        {
          firstImage = source
        }
      default:
        break
      }
    }
    title = (metas["og:title"] ?? metas["twitter:title"] ?? titleText).map(HTMLText.clean)
    image = metas["og:image"] ?? metas["og:image:url"] ?? metas["twitter:image"] ?? firstImage
    description = (metas["og:description"] ?? metas["description"]).map(HTMLText.clean)
  }

  func fill(_ recipe: JSONValue, url: String?) -> JSONValue {
    guard var members = recipe.objectValue else { return recipe }
    if members["name"] == nil, let title, !title.isEmpty { members["name"] = .string(title) }
    if members["image"] == nil, let image, !image.isEmpty {
      members["image"] = .string(PageURL.resolve(image, base: url))
    }
    if members["description"] == nil, let description, !description.isEmpty {
      members["description"] = .string(description)
    }
    return .object(members)
  }
}
