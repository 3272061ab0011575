/// Gives each distinct colour a slot, looking colours up by a key (a count or a gradient
/// index) so that each key's colour is computed and hashed only once per image.
struct ColourAssigner {
  var colours: [RGB] = []
  var slotOfColour: [UInt32: UInt16] = [:]

  @inline(__always)
  mutating func slot(for key: Int, in slots: inout [Int32], colour: () -> RGB) -> UInt16 {
    let known = slots[key]
    if known >= 0 { return UInt16(known) }
    let rgb = colour()
    let slot: UInt16
    if let existing = slotOfColour[rgb.packed] {
      slot = existing
    } else {
      slot = UInt16(colours.count)
      slotOfColour[rgb.packed] = slot
      colours.append(rgb)
    }
    slots[key] = Int32(slot)
    return slot
  }
}
