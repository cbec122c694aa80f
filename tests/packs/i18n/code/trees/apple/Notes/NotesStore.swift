import Foundation

final class NotesStore: ObservableObject {
    @Published var notes: [Note] = []
    var characterCount: Int { notes.reduce(0) { $0 + $1.text.count } }
    var statusKey: String { "status.\(notes.isEmpty ? "empty" : "full")" }
    let build = "421"

    var summary: String {
        if notes.isEmpty {
            return String(localized: "notes.empty", defaultValue: "No notes yet",
                          comment: "Shown when the list is empty")
        }
        let format = NSLocalizedString("notes.count", comment: "Number of notes")
        return String.localizedStringWithFormat(format, notes.count)
    }

    func saved() -> String {
        NSLocalizedString("notes.saved", tableName: nil, value: "Saved", comment: "")
    }

    func sortTitle() -> String {
        NSLocalizedString("settings.sort", tableName: "Settings", comment: "Sort picker title")
    }

    func describe(_ error: Error) -> String {
        let code = String(describing: type(of: error))
        return NSLocalizedString("error.\(code)", comment: "An error, by its type")
    }

    func label(for key: String) -> String {
        NSLocalizedString(key, comment: "")
    }

    func add() {}
    func delete(at offsets: IndexSet) {}
}

struct Note: Identifiable {
    let id = UUID()
    var text: String
}
