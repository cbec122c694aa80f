package com.example.notes

import android.os.Bundle
import android.util.Log
import androidx.appcompat.app.AppCompatActivity
import com.example.notes.databinding.ActivityMainBinding

class MainActivity : AppCompatActivity() {

    private lateinit var binding: ActivityMainBinding

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        binding = ActivityMainBinding.inflate(layoutInflater)
        setContentView(binding.root)
        setTitle(R.string.title_notes)

        val user = intent.getStringExtra("user") ?: ""
        binding.welcome.text = getString(R.string.welcome_message, user)
        Log.d("MainActivity", "created for $user")
    }

    fun showCount(count: Int) {
        binding.count.text = resources.getQuantityString(R.plurals.notes_count, count, count)
    }

    fun statusLabel(status: String): String {
        // Resolved by name: every status_* string may be used.
        val id = resources.getIdentifier("status_$status", "string", packageName)
        return getString(id)
    }

    fun chooserTitle(): CharSequence = getText(R.string.share_chooser)

    // R.string.unused_banner is only named in this comment.
    private val toolbarTitle = com.example.notes.R.string.fq_title
    private val platformOk = android.R.string.ok
}
