package com.example.notes;

import android.content.Context;
import android.widget.EditText;

public class LegacyAdapter {
    private final Context context;

    public LegacyAdapter(Context context) {
        this.context = context;
    }

    public void bind(EditText field, String mode) {
        field.setHint(R.string.legacy_hint);
        int id = context.getResources().getIdentifier("mode_" + mode, "string", context.getPackageName());
        int search = context.getResources().getIdentifier("action_search", "string", context.getPackageName());
        String[] orders = context.getResources().getStringArray(R.array.sort_orders);
        field.setText(context.getString(id));
    }
}
