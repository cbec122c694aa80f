package com.example.report;

import java.util.ResourceBundle;
import javax.swing.JLabel;

public class Reports {
    private final ResourceBundle messages = ResourceBundle.getBundle("messages");
    private final ResourceBundle errors = ResourceBundle.getBundle("errors");

    JLabel header() {
        JLabel label = new JLabel(messages.getString("report.header"));
        label.setToolTipText("Printed every Monday");
        return label;
    }

    String total(String column) {
        return messages.getString("report." + column);
    }
}
