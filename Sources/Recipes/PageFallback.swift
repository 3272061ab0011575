import JSON

/// What a page says about itself outside recipe markup (Open Graph, `<title>`, meta
/// description, its first large image), used for fields a recipe lacks.
struct PageFallback {
  private(set) var title: String?
  private(set) var image: String?
  /// The page's first picture of content (a large enough `<img>` that is no logo or icon).
  private(set) var contentImage: String?
  private(set) var description: String?
  /// The page's share images (Open Graph, Twitter card) in page order, with the sizes
  /// `og:image:width` and `og:image:height` state for them.
  private(set) var shareImages: [ImageCandidate] = []
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
        if let content = node.attribute("content") { noteShareImage(key, content) }
      case "title" where titleText == nil:
        titleText = document.text(of: index)
      case "img" where firstImage == nil:
        // The first picture of content: logos, icons, vector drawings, small images and the
        // page's controls (a picture that links to another page, a form's button) are passed
        // over.
        if let source = node.attribute("src"), Self.isPhoto(source),
          (node.attribute("width").flatMap(Int.init) ?? 200) >= 200,
          !Self.isControl(index, in: document)
        {
          firstImage = source
        }
      default:
        break
      }
    }
    title = (metas["og:title"] ?? metas["twitter:title"] ?? titleText).map(HTMLText.clean)
    let shareImage = [
      metas["og:image"], metas["og:image:url"], metas["og:image:secure_url"],
      metas["twitter:image"],
    ].compactMap { $0 }.first { Self.isPhoto($0) }
    image = shareImage ?? firstImage
    contentImage = firstImage
    description = (metas["og:description"] ?? metas["description"]).map(HTMLText.clean)
  }

  /// Keeps a share image, or a size stated for the share image before it.
  private mutating func noteShareImage(_ key: String, _ content: String) {
    let content = HTMLText.collapse(content)
    guard !content.isEmpty, shareImages.count < 100 else { return }
    switch key {
    case "og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src":
      shareImages.append(ImageCandidate(url: content, rank: ImageCandidate.share))
    case "og:image:width" where !shareImages.isEmpty:
      shareImages[shareImages.count - 1].width = Int(
        content.prefix { $0.isASCII && $0.isNumber }.prefix(9))
    case "og:image:height" where !shareImages.isEmpty:
      shareImages[shareImages.count - 1].height = Int(
        content.prefix { $0.isASCII && $0.isNumber }.prefix(9))
    default:
      break
    }
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
    } && !lower.hasSuffix(".svg")
  }

  /// Whether an element is part of the page's controls: inside a form, a button, or a link to
  /// another page (a link to a picture, such as a larger copy, is no control).
  static func isControl(_ index: Int, in document: HTMLDocument) -> Bool {
    var current = document.nodes[index].parent
    var depth = 0
    while current >= 0, depth < 64 {
      let node = document.nodes[current]
      switch node.name {
      case "form", "button": return true
      case "a":
        guard let link = node.attribute("href") else { break }
        let path = (link.split(separator: "?").first ?? "").lowercased()
        let picture = [".jpg", ".jpeg", ".png", ".webp", ".gif", ".avif"].contains {
          path.hasSuffix($0)
        }
        if !picture { return true }
      default: break
      }
      current = node.parent
      depth += 1
    }
    return false
  }

  /// Fills a normalised recipe's missing name, image and description from the page. The main
  /// (first) recipe of a page chooses its image among its own (`ownImages`, as found) and the
  /// page's share images by `ImageCandidate`'s rule (the largest stated picture), or takes the
  /// page's first picture of content when all of those are logos or icons; other recipes keep
  /// their own.
  func fill(_ recipe: JSONValue, ownImages: JSONValue?, url: String?, main: Bool) -> JSONValue {
    guard var members = recipe.objectValue else { return recipe }
    if main,
      var chosen = ImageCandidate.best(RecipeImage.candidates(ownImages) + shareImages, base: url)
    {
      if ImageCandidate.isJunk(chosen), let contentImage {
        chosen = PageURL.resolve(contentImage, base: url)
      }
      members["image"] = .string(chosen)
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
