import JSON

/// What a page says about itself outside recipe markup (Open Graph, `<title>`, meta
/// description, its first large image), used for fields a recipe lacks.
struct PageFallback {
  private(set) var title: String?
  private(set) var image: String?
  private(set) var description: String?
  /// The page's share image (Open Graph, Twitter card) unless it looks like a logo or icon.
  private(set) var shareImage: String?
  /// The page, read again for labelled times and yields only when a recipe lacks them.
  private let document: HTMLDocument

  init(document: HTMLDocument) {
    self.document = document
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
        // The first picture of content: logos, icons and small images are passed over.
        if let source = node.attribute("src"), Self.isPhoto(source),
          (node.attribute("width").flatMap(Int.init) ?? 200) >= 200
        {
          firstImage = source
        }
      default:
        break
      }
    }
    title = (metas["og:title"] ?? metas["twitter:title"] ?? titleText).map(HTMLText.clean)
    shareImage = [
      metas["og:image"], metas["og:image:url"], metas["og:image:secure_url"],
      metas["twitter:image"],
    ].compactMap { $0 }.first { Self.isPhoto($0) }
    image = shareImage ?? firstImage.flatMap { Self.isPhoto($0) ? $0 : nil }
    description = (metas["og:description"] ?? metas["description"]).map(HTMLText.clean)
  }

  /// The yield and times the page states beside labels, for a recipe whose markup has none.
  private func fillFromLabels(_ members: inout [String: JSONValue]) {
    let timed = RecipeDuration.keys.contains { members[$0] != nil }
    guard members["recipeYield"] == nil || !timed else { return }
    let labels = PageLabels(document: document)
    if members["recipeYield"] == nil, let text = labels.values["recipeYield"],
      let yield = RecipeYield.normalise(text)
    {
      members["recipeYield"] = .string(yield)
    }
    if !timed {
      for (key, value) in RecipeDuration.times(labels.values) { members[key] = .string(value) }
    }
  }

  /// Whether a link looks like a picture of content rather than a logo, icon or placeholder.
  static func isPhoto(_ link: String) -> Bool {
    let trimmed = HTMLText.collapse(link)
    guard !trimmed.isEmpty, !trimmed.hasPrefix("data:") else { return false }
    let file = (trimmed.split(separator: "?").first ?? "").split(separator: "/").last ?? ""
    let lower = file.lowercased()
    return !["logo", "icon", "favicon", "placeholder", "blank", "spacer", "avatar"].contains {
      lower.contains($0)
    }
  }

  /// Fills a normalised recipe's missing name, image and description from the page. The main
  /// (first) recipe of a page takes the page's share image when that is another picture than
  /// the recipe's own (pages choose it as their best picture of the dish), or the same picture
  /// at a larger size both URLs state; otherwise the recipe keeps its own.
  func fill(_ recipe: JSONValue, url: String?, main: Bool) -> JSONValue {
    guard var members = recipe.objectValue else { return recipe }
    if main, let shareImage {
      let share = PageURL.resolve(shareImage, base: url)
      if let own = members["image"]?.stringValue.map({ PageURL.resolve($0, base: url) }),
        own.contains("://"), PictureName.key(own) == PictureName.key(share)
      {
        members["image"] = .string(own)
        if let ownArea = PictureName.area(own), let shareArea = PictureName.area(share),
          shareArea > ownArea
        {
          members["image"] = .string(share)
        }
      } else {
        members["image"] = .string(share)
      }
    }
    if members["name"] == nil, let title, !title.isEmpty { members["name"] = .string(title) }
    if members["image"] == nil, let image, !image.isEmpty {
      members["image"] = .string(PageURL.resolve(image, base: url))
    }
    if main { fillFromLabels(&members) }
    if members["description"] == nil, let description, !description.isEmpty {
      members["description"] = .string(description)
    }
    return .object(members)
  }
}
