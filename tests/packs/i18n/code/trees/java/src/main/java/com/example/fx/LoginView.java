package com.example.fx;

import java.util.ResourceBundle;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.control.TextField;
import javafx.stage.Stage;

public class LoginView {
    private final ResourceBundle resources;

    public LoginView(ResourceBundle resources) {
        this.resources = resources;
    }

    public void show(Stage stage) {
        Label user = new Label(resources.getString("login.user"));
        TextField name = new TextField();
        name.setPromptText("jane.doe");
        Label password = new Label(this.resources.getString("login.password"));
        PasswordField secret = new PasswordField();
        secret.setPromptText("At least 12 characters");
        stage.setTitle(resources.getString("login.title"));
        // i18n-ignore: shown in the developer build only
        Label build = new Label("Development build");
        Label version = new Label("v2.3.1");
    }
}
