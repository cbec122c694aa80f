import SwiftUI

struct ContentView: View {
    @StateObject private var store = NotesStore()
    @State private var showSettings = false
    let userName: String

    var body: some View {
        NavigationStack {
            List {
                Text("Hello \(userName)")
                ForEach(store.notes) { note in
                    NoteRow(note: note)
                }
                .onDelete(perform: store.delete)
                Text(store.summary)
                Text("\(store.characterCount) characters")
            }
            .navigationTitle("Notes")
            .toolbar {
                Button("New Note") { store.add() }
                Label("Delete", systemImage: "trash")
            }
            Toggle(String(localized: "settings.sync", table: "Settings"), isOn: $showSettings)
            Text(verbatim: "Notes for iOS")
            Text(verbatim: "v2.1.0")
            Text(verbatim: "Build \(store.build)") // i18n-ignore
            Text(LocalizedStringKey(store.statusKey))
        }
    }
}
