package com.example.notes

import androidx.compose.material3.Text
import androidx.compose.runtime.Composable

@Composable
fun DetailsScreen() {
    Text("Note details")
}
