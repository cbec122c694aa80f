package com.example.notes

import androidx.compose.foundation.layout.Column
import androidx.compose.material3.Button
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.ui.res.pluralStringResource
import androidx.compose.ui.res.stringResource

@Composable
fun NotesScreen(notes: List<String>, selected: Int, onSave: () -> Unit) {
    Column {
        Text(stringResource(R.string.compose_title))
        Text(text = pluralStringResource(R.plurals.selected_count, selected, selected))
        Text("Pull to refresh")
        Text(text = "${notes.size} notes loaded")
        Button(onClick = onSave) {
            Text(stringResource(id = R.string.button_save))
        }
        Text("•")
        Text("Beta") // i18n-ignore
    }
}
