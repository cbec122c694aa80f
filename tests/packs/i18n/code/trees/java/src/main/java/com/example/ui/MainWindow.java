package com.example.ui;

import java.text.MessageFormat;
import java.util.ResourceBundle;
import java.util.logging.Logger;
import javax.swing.*;

/** The main window: "Acme Inventory" in its title bar. */
public class MainWindow extends JFrame {
    private static final Logger LOG = Logger.getLogger(MainWindow.class.getName());
    private static final ResourceBundle BUNDLE = ResourceBundle.getBundle("messages");
    private static final String TITLE_KEY = "app.title";

    private final JLabel status = new JLabel();

    public MainWindow() {
        setTitle(BUNDLE.getString(TITLE_KEY));
        JMenu file = new JMenu(BUNDLE.getString("menu.file"));
        file.add(new JMenuItem(BUNDLE.getString("menu.file.open")));
        JButton save = new JButton(BUNDLE.getString("toolbar.save"));
        JButton export = new JButton("Export");
        export.setToolTipText("Export the inventory as CSV");
        JCheckBox autosave = new JCheckBox("Save automatically");
        status.setText(BUNDLE.getString("status.ready"));
        LOG.info("Main window created");
        System.out.println("Debug: window ready");
    }

    void showCount(int count) {
        status.setText(MessageFormat.format(BUNDLE.getString("status.items"), count));
        status.setText("Items: " + count);
    }

    void fail(String code, Exception cause) {
        LOG.severe("Failed: " + cause.getMessage());
        JOptionPane.showMessageDialog(this, BUNDLE.getString("error." + code), "Error",
                JOptionPane.ERROR_MESSAGE);
        throw new IllegalStateException("Unrecoverable state", cause);
    }
}
