#import "LegacyViewController.h"

@implementation LegacyViewController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.title = NSLocalizedString(@"legacy.title", @"Title of the classic screen");
    self.subtitleLabel.text = NSLocalizedStringFromTable(@"legacy.subtitle", @"Localizable", nil);
    // NSLocalizedString(@"unused.banner", nil) is commented out.
    NSLog(@"loaded %@", self);
}

- (NSString *)labelForKey:(NSString *)key {
    return NSLocalizedString(key, nil);
}

@end
